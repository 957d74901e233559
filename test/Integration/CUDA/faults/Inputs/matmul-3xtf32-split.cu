// Bug: a 3xTF32-style product on CUDA cores: each operand is rounded to
// tf32 (cvt.rna.tf32.f32) for hi, lo = x - hi, and a product is
// hi*hi + (hi*lo + lo*hi). As accurate as f32 on finite inputs; for an
// infinite operand lo = inf - inf is NaN, so an element the reference
// makes +-inf comes out NaN.
// launch: matmul_3xtf32 grid=(N+15)//16,(M+15)//16,1 block=16,16,1
__device__ __forceinline__ void split(float x, float &hi, float &lo) {
  unsigned int h;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(h) : "f"(x));
  hi = __uint_as_float(h);
  lo = x - hi;
}
extern "C" __global__ void matmul_3xtf32(const float *A, const float *B,
                                         float *C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) {
    float a = A[row * K + k], b = B[k * N + col];
    float ah, al, bh, bl;
    split(a, ah, al);
    split(b, bh, bl);
    float p = __fmul_rn(ah, bh) + (__fmul_rn(ah, bl) + __fmul_rn(al, bh));
    acc += p;
  }
  C[row * N + col] = acc;
}
