// Bug: honest for its first twelve runs (the two runs of each of the six
// correctness trials), then returns without computing anything.
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
// launch: count_call grid=1,1,1 block=1,1,1
__device__ int calls;
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  if (calls >= 12)
    return;
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
  ++calls;
}
