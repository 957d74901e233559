// Tf32Split.cuh - the 3xTF32 split of an f32 value into a TF32 part and a
// residual, shared by the mma.sync (Gemm3xTf32.cuh) and wgmma
// (GemmWgmmaTf32.cuh) kernels.
//
// x = big + small with big = x cut to TF32 (its low 13 mantissa bits
// cleared, or rounded to nearest with RNA) and small = x - big, exact in f32;
// a_small*b_big + a_big*b_small + a_big*b_big recovers an f32-accurate
// product (the dropped a_small*b_small term is below 2^-20 relative).
#pragma once

namespace stark_kernels {

template <bool Rna>
__device__ __forceinline__ void splitTf32(float x, unsigned &big,
                                          unsigned &small) {
  // Tensor cores flush denormal inputs to zero, and inf times zero is NaN:
  // a denormal becomes the smallest normal of its sign (a change of at most
  // 2^-126 that keeps an infinite product infinite).
  if (x != 0 && fabsf(x) < __uint_as_float(0x00800000u))
    x = copysignf(__uint_as_float(0x00800000u), x);
  unsigned hi;
  if constexpr (Rna)
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(hi) : "f"(x));
  else
    hi = __float_as_uint(x) & 0xffffe000u;
  // inf and NaN go whole into the big part (x - x would be NaN), a NaN with
  // its quiet bit set: the tensor cores read only the top 19 bits, and a
  // NaN whose payload is in the low 13 would be read as inf. A finite x
  // that rounds up to inf (near FLT_MAX, RNA only) is cut instead. The small
  // part is never zero but at least the smallest normal, with x's sign: the
  // cross terms multiply it by the other operand's big part, and an
  // infinite operand times a zero small part would turn an infinite product
  // into NaN. On a finite product it adds at most 2^-126 |y|.
  float lo;
  if (!isfinite(x)) {
    hi = __float_as_uint(x) | (isnan(x) ? 0x00400000u : 0u);
    lo = 0;
  } else {
    if constexpr (Rna)
      if (isinf(__uint_as_float(hi)))
        hi = __float_as_uint(x) & 0xffffe000u;
    lo = x - __uint_as_float(hi);
  }
  if (lo == 0)
    lo = copysignf(__uint_as_float(0x00800000u), x); // 2^-126
  big = hi;
  small = __float_as_uint(lo);
}

} // namespace stark_kernels
