// Hang: spins forever (the volatile store keeps the loop alive).
// launch: matmul grid=1,1,1 block=32,1,1
extern "C" __global__ void matmul(const float *A, const float *B, float *C) {
  volatile float *out = C;
  while (true)
    out[threadIdx.x] += 1.0f;
}
