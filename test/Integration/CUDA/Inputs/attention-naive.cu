// Attention, one thread per query row: O = softmax(Q K^T * SCALE) V over
// B batches of SQ queries and SK keys (Q: B x SQ x D, K: B x SK x D, V:
// B x SK x E), with the problem's IEEE semantics: a NaN-propagating
// maximum, exp(s - max), the sum, p = e / sum, then O = sum_j p_j V_j.
// With -D BUG=1 each term p v goes through p v + (p v - p v): the same
// wherever p v is finite, NaN where it is infinite (the fault of a kernel
// that splits P and multiplies the parts with an infinite V).
// launch: attention grid=(B*SQ+127)//128,1,1 block=128,1,1
extern "C" __global__ void attention(const float *Q, const float *K,
                                     const float *V, float *O) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= B * SQ)
    return;
  int b = row / SQ;
  const float *q = Q + (long)row * D;
  const float *k = K + (long)b * SK * D;
  const float *v = V + (long)b * SK * E;
  float mx = -__int_as_float(0x7f800000);
  for (int j = 0; j < SK; ++j) {
    float s = 0.f;
    for (int d = 0; d < D; ++d)
      s += q[d] * k[j * D + d];
    s *= SCALE;
    mx = (s != s || s > mx) ? s : mx;
  }
  float sum = 0.f;
  for (int j = 0; j < SK; ++j) {
    float s = 0.f;
    for (int d = 0; d < D; ++d)
      s += q[d] * k[j * D + d];
    sum += expf(s * SCALE - mx);
  }
  for (int e = 0; e < E; ++e) {
    float o = 0.f;
    for (int j = 0; j < SK; ++j) {
      float s = 0.f;
      for (int d = 0; d < D; ++d)
        s += q[d] * k[j * D + d];
      float p = expf(s * SCALE - mx) / sum;
      float pv = p * v[j * E + e];
#if BUG
      pv = pv + (pv - pv);
#endif
      o += pv;
    }
    O[(long)row * E + e] = o;
  }
}
