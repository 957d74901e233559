// A C-style cast drops the `const` of an input and writes through it (no
// const_cast for the text guards to see).
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
  ((float *)B)[col] = 0.0f;
}
