// Bug: one element of C is NaN.
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  if (row == 7 && col == 3)
    acc = __int_as_float(0x7fc00000);
  C[row * N + col] = acc;
}
