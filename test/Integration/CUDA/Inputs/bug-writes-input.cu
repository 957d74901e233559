// Bug: computes C correctly, then clobbers A[0][0] (after every reader of
// it is done: a second launch).
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
// launch: clobber grid=1,1,1 block=1,1,1
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
extern "C" __global__ void clobber(float *A, const float *B, float *C) {
  A[0] = 0.0f;
}
