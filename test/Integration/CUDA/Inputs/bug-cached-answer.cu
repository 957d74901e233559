// Bug: computes once, into a device-global cache, and from then on only
// copies the cached (first trial's) answer out.
// launch: compute grid=(N+15)//16,(M+15)//16,1 block=16,16,1
// launch: publish grid=(M*N+255)//256,1,1 block=256,1,1
// launch: mark_done grid=1,1,1 block=1,1,1
__device__ float cache[M * N];
__device__ int done;
extern "C" __global__ void compute(const float *A, const float *B, float *C) {
  if (done)
    return;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  cache[row * N + col] = acc;
}
extern "C" __global__ void publish(const float *A, const float *B, float *C) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M * N)
    C[i] = cache[i];
}
extern "C" __global__ void mark_done(const float *A, const float *B, float *C) {
  done = 1;
}
