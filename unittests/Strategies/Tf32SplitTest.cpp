//===- Tf32SplitTest.cpp - The 3xTF32 split's contract, on the host -------===//
//
// Tf32Split.cuh is device code; its truncating split (the one the kernels
// use) is plain arithmetic on bits, so it is compiled here for the host with
// the few CUDA built-ins it calls and checked against what the tensor cores
// need: a big part they read whole (low 13 bits clear, or a value whose
// truncation keeps it: inf, a quiet NaN), a residual that is exact and never
// zero, and special values that keep their meaning.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <random>

#define __device__
#define __forceinline__ inline
namespace {
unsigned __float_as_uint(float f) {
  unsigned u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
using std::isfinite;
using std::isinf;
using std::isnan;
} // namespace
#include "../../lib/Strategies/Kernels/Tf32Split.cuh"

namespace {

using stark_kernels::splitTf32;

/// What a tensor core reads of a TF32 operand: the top 19 bits.
float asTensorCoreReads(unsigned bits) {
  return __uint_as_float(bits & 0xffffe000u);
}

struct Parts {
  float big, small;
};
Parts split(float x) {
  unsigned big, small;
  splitTf32<false>(x, big, small);
  return {asTensorCoreReads(big), asTensorCoreReads(small)};
}

TEST(Tf32SplitTest, FiniteValuesSplitExactlyIntoWhatTensorCoresRead) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> mantissa(-2.f, 2.f);
  std::uniform_int_distribution<int> exponent(-100, 100);
  for (int i = 0; i < 100000; ++i) {
    float x = std::ldexp(mantissa(rng), exponent(rng));
    unsigned big, small;
    splitTf32<false>(x, big, small);
    EXPECT_EQ(big & 0x1fffu, 0u) << x;
    // big + small is x exactly, but where x is a TF32 value and the
    // residual would be zero: it is then 2^-126 with x's sign. What the
    // residual loses to its own TF32 cut is below 2^-20 of x.
    double tiny = std::ldexp(1.0, -126);
    if ((__float_as_uint(x) & 0x1fffu) == 0)
      EXPECT_EQ(__uint_as_float(small), std::copysign(float(tiny), x)) << x;
    else
      EXPECT_EQ(__uint_as_float(big) + __uint_as_float(small), x);
    float cut = __uint_as_float(big) + asTensorCoreReads(small);
    EXPECT_LE(std::fabs(double(cut) - double(x)),
              std::ldexp(std::fabs(double(x)), -20) + tiny)
        << x;
  }
}

// A residual of zero would turn inf * y into inf * 0 = NaN in a cross term.
TEST(Tf32SplitTest, ResidualIsNeverZero) {
  for (float x : {1.0f, -0.5f, 0.0f, -0.0f, 1024.0f}) {
    Parts p = split(x);
    EXPECT_NE(p.small, 0.0f) << x;
    EXPECT_EQ(std::signbit(p.small), std::signbit(x)) << x;
    EXPECT_LE(std::fabs(p.small), std::ldexp(1.0f, -126)) << x;
  }
}

TEST(Tf32SplitTest, SpecialValuesKeepTheirMeaning) {
  float inf = INFINITY;
  for (float x : {inf, -inf}) {
    Parts p = split(x);
    EXPECT_EQ(p.big, x);
    EXPECT_TRUE(std::isfinite(p.small));
  }
  // A NaN whose payload lies only in the low 13 bits stays NaN after the
  // tensor cores' cut, with its sign.
  for (unsigned bits : {0x7f800001u, 0xff801000u, 0x7fc00000u, 0x7fffffffu}) {
    Parts p = split(__uint_as_float(bits));
    EXPECT_TRUE(std::isnan(p.big)) << std::hex << bits;
    EXPECT_EQ(std::signbit(p.big), bool(bits >> 31)) << std::hex << bits;
  }
  // Tensor cores flush denormals: a denormal becomes the smallest normal of
  // its sign, so that inf * denormal stays infinite.
  for (float x : {std::ldexp(1.0f, -140), -std::ldexp(1.0f, -130)}) {
    Parts p = split(x);
    EXPECT_EQ(p.big, std::copysign(std::ldexp(1.0f, -126), x)) << x;
  }
}

} // namespace
