// Bug (a race): a shared-memory tree reduction over 256 threads that
// synchronises only before the tree, not between its levels, as if the
// whole block were one warp. Threads of one level read partial sums other
// warps have not written yet.
// launch: rowsum grid=R,1,1 block=256,1,1
extern "C" __global__ void rowsum(const float *A, float *S) {
  __shared__ float partial[256];
  const float *row = A + (size_t)blockIdx.x * C;
  float acc = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    acc += row[c];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
  }
  if (threadIdx.x == 0)
    S[blockIdx.x] = partial[0];
}
