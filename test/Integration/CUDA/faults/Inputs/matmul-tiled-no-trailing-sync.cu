// Bug (a race): ../../Inputs/matmul-tiled.cu without the __syncthreads()
// at the end of each K step. A fast warp starts overwriting As and Bs with
// the next tile while slower warps of the block still read the current
// one. Often right by luck of the schedule.
// launch: matmul_tiled grid=(N+15)//16,(M+15)//16,1 block=16,16,1
#define TILE 16
extern "C" __global__ void matmul_tiled(const float *A, const float *B,
                                        float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}
