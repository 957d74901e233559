// Bug: the bf16 matmul of matmul-bf16-f32acc.cu, accumulated in f32 but
// stopping 8 products short of K.
// launch: matmul_bf16 grid=(N+15)//16,(M+15)//16,1 block=16,16,1
#include <cuda_bf16.h>
extern "C" __global__ void
matmul_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = __bfloat162float(C[row * N + col]);
  for (int k = 0; k < K - 8; ++k)
    acc += __bfloat162float(A[row * K + k]) * __bfloat162float(B[k * N + col]);
  C[row * N + col] = __float2bfloat16_rn(acc);
}
