// C += A * B in two launches, each over one part of K: a template kernel
// (launched by name expression) staging 16x16 tiles of A and B in dynamic
// shared memory. Both launches add into C; overlapping, they would race, so
// they must run one after the other.
// Each launch directive must stay on one line:
// clang-format off
// launch: matmul_part<0,64> grid=(N+15)//16,(M+15)//16,1 block=16,16,1 shared=2*16*16*4
// launch: matmul_part<64,129> grid=(N+15)//16,(M+15)//16,1 block=16,16,1 shared=2*16*16*4
// clang-format on
#define TILE 16
template <int K0, int K1>
__global__ void matmul_part(const float *A, const float *B, float *C) {
  extern __shared__ float tiles[];
  float *As = tiles, *Bs = tiles + TILE * TILE;
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = K0; k0 < K1; k0 += TILE) {
    As[ty * TILE + tx] =
        (row < M && k0 + tx < K1) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty * TILE + tx] =
        (k0 + ty < K1 && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty * TILE + k] * Bs[k * TILE + tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] += acc;
}
