// A call counter in a function-local `static` variable (device code may
// have them; they live in global memory). The text guards' static rule
// wants `static <type> <name>`, which `static unsigned int` is not.
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  static unsigned int calls;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
  if (row == 0 && col == 0)
    ++calls;
}
