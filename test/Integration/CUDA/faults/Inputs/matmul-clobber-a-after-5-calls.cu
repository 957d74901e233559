// Bug: computes C correctly; from its sixth launch on (after the
// correctness trials) it also writes 0 to A[0] through a cast-away const.
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
// launch: count_call grid=1,1,1 block=1,1,1
__device__ int calls;
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
extern "C" __global__ void count_call(const float *A, const float *B,
                                      float *C) {
  if (++calls > 5)
    ((float *)A)[0] = 0.0f;
}
