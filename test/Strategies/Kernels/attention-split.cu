// The bf16 attention kernel's P as head + tail (AttnMma<bf16>::split in
// AttentionMma16.cuh), run on the host over probabilities from 1 down to
// the smallest the kernel's exp2 gives (2^-126), and 0: the head is p
// rounded toward zero; head + tail is p within 2^-15 of p (for p >= 2^-110;
// below, the tail falls among bf16's subnormals); the tail is never
// negative and, for p >= 2^-113, never zero (a zero or negative
// tail times an infinite V would make NaN where p V is inf); p = 0 gives
// 0 and 0 (0 V is NaN for an infinite V, as the formula has it).
// RUN: %nvcc-host %s -o %t && %t | FileCheck %s
// CHECK: checked {{[0-9]+}} probabilities: 0 failed

#include "Prelude.cuh"

#include "AttentionMma16.cuh"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace stark_kernels;

static float lowOf(unsigned pair) {
  __nv_bfloat162 h;
  std::memcpy(&h, &pair, sizeof(h));
  return __low2float(h);
}

int main() {
  int checked = 0, failed = 0;
  auto check = [&](float p) {
    unsigned head, tail;
    AttnMma<__nv_bfloat16>::split(p, 0.f, head, tail);
    const float h = lowOf(head), t = lowOf(tail);
    const double sum = (double)h + (double)t;
    bool ok = h <= p && h >= 0 && t >= 0;
    if (p == 0)
      ok = ok && h == 0 && t == 0;
    else if (p >= std::ldexp(1.0f, -110))
      ok = ok && std::fabs(sum - p) <= std::ldexp((double)p, -15) && t > 0;
    else // the tail among bf16's subnormals: fewer bits, still >= 0
      ok = ok && std::fabs(sum - p) <= std::ldexp((double)p, -7) &&
           (p < std::ldexp(1.0f, -113) || t > 0);
    ++checked;
    if (!ok && failed++ < 10)
      std::printf("p %a: head %a tail %a\n", p, h, t);
  };
  check(0.f);
  // Every exponent from 0 down to -126, with mantissas that bf16 holds
  // exactly (a zero remainder) and ones it does not.
  for (int e = 0; e >= -126; --e)
    for (unsigned m = 0; m < (1u << 23); m += 4099)
      check(std::ldexp(1.f + m * 0x1p-23f, e) / 2);
  std::printf("checked %d probabilities: %d failed\n", checked, failed);
  return failed != 0;
}
