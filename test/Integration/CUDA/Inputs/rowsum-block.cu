// One block of 256 threads per row: strided partial sums, then a shared
// memory tree and a warp shuffle.
// launch: rowsum grid=R,1,1 block=256,1,1
extern "C" __global__ void rowsum(const float *A, float *S) {
  __shared__ float partial[8];
  const float *row = A + (size_t)blockIdx.x * C;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    acc += row[c];
  for (int offset = 16; offset > 0; offset /= 2)
    acc += __shfl_down_sync(0xffffffffu, acc, offset);
  if (threadIdx.x % 32 == 0)
    partial[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < 8 ? partial[threadIdx.x] : 0.0f;
    for (int offset = 4; offset > 0; offset /= 2)
      acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (threadIdx.x == 0)
      S[blockIdx.x] = acc;
  }
}
