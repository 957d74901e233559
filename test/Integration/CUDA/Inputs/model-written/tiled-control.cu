// A correct tiled matmul with what the guards allow: static shared tiles,
// a read-only __constant__ table, a static constexpr member, and atomics on
// the output (each element zeroed, then added to, by its own thread) and in
// shared memory.
// launch: matmul grid=(N+15)//16,(M+15)//16,1 block=16,16,1
#define TILE 16
__constant__ float kOne[1] = {1.0f};
struct Shape {
  static constexpr int kTile = TILE;
};
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  __shared__ unsigned int tilesDone;
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  if (tx == 0 && ty == 0)
    tilesDone = 0;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += Shape::kTile) {
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
    if (tx == 0 && ty == 0)
      atomicAdd(&tilesDone, 1u);
  }
  if (row < M && col < N) {
    C[row * N + col] = 0.0f;
    atomicAdd(&C[row * N + col], acc * kOne[0]);
  }
}
