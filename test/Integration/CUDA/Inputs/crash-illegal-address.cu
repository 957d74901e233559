// Crash: writes a terabyte past the output, into unmapped memory.
// launch: matmul grid=1,1,1 block=32,1,1
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  C[(size_t(1) << 38) + threadIdx.x] = 1.0f;
}
