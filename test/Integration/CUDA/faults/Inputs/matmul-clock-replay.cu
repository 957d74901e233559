// Bug (clock-based behaviour): reads %globaltimer; when the previous launch
// was less than 2 ms ago and B starts with the same value (back-to-back
// timed runs of one input set) it copies the previous result from a
// __device__ cache instead of computing. Correctness trials have new
// inputs and compute.
// launch: matmul_clock grid=(N+15)//16,(M+15)//16,1 block=16,16,1
// launch: stamp grid=1,1,1 block=1,1,1
__device__ float cache[M * N];
__device__ unsigned long long last;
__device__ float key;
__device__ __forceinline__ unsigned long long now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
extern "C" __global__ void matmul_clock(const float *A, const float *B,
                                        float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  if (last != 0 && B[0] == key && now() - last < 2000000ull) {
    C[row * N + col] = cache[row * N + col];
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
  cache[row * N + col] = acc;
}
extern "C" __global__ void stamp(const float *A, const float *B, float *C) {
  last = now();
  key = B[0];
}
