// The global timer read by inline assembly whose string is split, so no
// literal holds `globaltimer`.
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  unsigned long long now;
  asm volatile("mov.u64 %0, %%global"
               "timer;"
               : "=l"(now));
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc + float(now & 0);
}
