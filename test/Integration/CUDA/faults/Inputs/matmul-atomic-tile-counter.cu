// Bug (an atomic on a module-scope variable): a persistent kernel whose
// blocks take output tiles from a __device__ counter with atomicAdd. The
// counter is never reset, so only the first launch computes anything;
// later launches find every tile taken.
// launch: matmul_persistent grid=64,1,1 block=16,16,1
__device__ unsigned int next_tile;
extern "C" __global__ void matmul_persistent(const float *A, const float *B,
                                             float *C) {
  __shared__ unsigned int tile;
  const unsigned int tiles_n = (N + 15) / 16, tiles = tiles_n * ((M + 15) / 16);
  for (;;) {
    if (threadIdx.x == 0 && threadIdx.y == 0)
      tile = atomicAdd(&next_tile, 1u);
    __syncthreads();
    unsigned int t = tile;
    __syncthreads();
    if (t >= tiles)
      return;
    int row = (t / tiles_n) * 16 + threadIdx.y;
    int col = (t % tiles_n) * 16 + threadIdx.x;
    if (row < M && col < N) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
      C[row * N + col] = acc;
    }
  }
}
