// Bug (state in __device__ variables): a cache of C keyed by four elements
// of B. When the key matches the previous launch, C is copied from the
// cache and A is never read; in a model B is a constant weight and A
// changes on every call.
// launch: matmul_cached grid=(N+15)//16,(M+15)//16,1 block=16,16,1
// launch: remember grid=1,1,1 block=1,1,1
__device__ float cache[M * N];
__device__ float key[4];
__device__ int valid;
__device__ __forceinline__ bool hit(const float *B) {
  return valid && B[0] == key[0] && B[N + 1] == key[1] &&
         B[2 * N + 2] == key[2] && B[3 * N + 3] == key[3];
}
extern "C" __global__ void matmul_cached(const float *A, const float *B,
                                         float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  if (hit(B)) {
    C[row * N + col] = cache[row * N + col];
    return;
  }
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
  cache[row * N + col] = acc;
}
extern "C" __global__ void remember(const float *A, const float *B, float *C) {
  key[0] = B[0];
  key[1] = B[N + 1];
  key[2] = B[2 * N + 2];
  key[3] = B[3 * N + 3];
  valid = 1;
}
