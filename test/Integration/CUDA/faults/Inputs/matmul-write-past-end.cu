// Bug: ../../Inputs/matmul-naive.cu, plus one store of 1.0 one element past
// the end of C by the last thread. The allocation's rounding leaves room
// for it, so nothing faults.
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
  if (row == M - 1 && col == N - 1)
    C[M * N] = 1.0f;
}
