// conv-check.cpp - runs the conv family's kernel (kernel.inc: the generated
// source after its prelude) on the host through cuda-host.h and compares it
// with a double-precision NCHW convolution on the same random data.
// Shape: -DQ_N -DQ_C -DQ_H -DQ_W (image), -DQ_F -DQ_KH -DQ_KW (filter),
// -DQ_SH -DQ_SW (strides), -DQ_DH -DQ_DW (dilations). Q_MODE: 0 the kernel
// adds to the output, 1 it starts from the fill value Q_FILLV, 2 it is
// relu(conv + bias[f]) (the bias is the third argument).
#include "cuda-host.h"

#include <cstdio>
#include <random>

#include "kernel.inc"

int main() {
  const int OH = (Q_H - Q_DH * (Q_KH - 1) - 1) / Q_SH + 1;
  const int OW = (Q_W - Q_DW * (Q_KW - 1) - 1) / Q_SW + 1;
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> in(Q_N * Q_C * Q_H * Q_W), wt(Q_F * Q_C * Q_KH * Q_KW),
      bias(Q_F), out(Q_N * Q_F * OH * OW);
  for (std::vector<float> *v : {&in, &wt, &bias, &out})
    for (float &x : *v)
      x = dist(gen);
  std::vector<float> ref = out;
  for (int n = 0; n < Q_N; ++n)
    for (int f = 0; f < Q_F; ++f)
      for (int oh = 0; oh < OH; ++oh)
        for (int ow = 0; ow < OW; ++ow) {
          double s = 0;
          for (int c = 0; c < Q_C; ++c)
            for (int kh = 0; kh < Q_KH; ++kh)
              for (int kw = 0; kw < Q_KW; ++kw)
                s +=
                    double(
                        in[((n * Q_C + c) * Q_H + oh * Q_SH + kh * Q_DH) * Q_W +
                           ow * Q_SW + kw * Q_DW]) *
                    wt[((f * Q_C + c) * Q_KH + kh) * Q_KW + kw];
          float &r = ref[((n * Q_F + f) * OH + oh) * OW + ow];
          if (Q_MODE == 0)
            r = float(r + s);
          else if (Q_MODE == 1)
            r = float(Q_FILLV + s);
          else
            r = float(std::max(0.0, s + bias[f]));
        }
  const int grid = TILES_X * TILES_F * int((ROWS + WR - 1) / WR);
  starkHostLaunch(grid, THREADS, [&] {
#if Q_MODE == 2
    stark_conv(in.data(), wt.data(), bias.data(), out.data());
#else
    stark_conv(in.data(), wt.data(), out.data());
#endif
  });
  int bad = 0;
  for (size_t i = 0; i < out.size(); ++i)
    if (!(std::fabs(out[i] - ref[i]) <= 1e-5 * (1 + std::fabs(ref[i])))) {
      if (bad++ < 5)
        std::printf("output %zu: %g, expected %g\n", i, out[i], ref[i]);
    }
  std::printf("%s: %zu outputs, %d wrong, %d blocks of %d threads\n",
              bad ? "wrong" : "ok", out.size(), bad, grid, THREADS);
  return bad != 0;
}
