//===- InputsTest.cpp - Generated inputs and output prefill ---------------===//

#include "stark/Eval/Inputs.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;

static ArgSpec spec(ElementKind kind, SmallVector<int64_t> shape = {7, 9},
                    bool isOutput = false) {
  ArgSpec s;
  s.kind = kind;
  s.shape = std::move(shape);
  s.isOutput = isOutput;
  return s;
}

TEST(InputsTest, SameSeedSameBytesOtherSeedOtherBytes) {
  for (Distribution d : getAllDistributions()) {
    HostBuffer a(spec(ElementKind::F32)), b(spec(ElementKind::F32)),
        c(spec(ElementKind::F32));
    fillRandom(a, d, 42);
    fillRandom(b, d, 42);
    fillRandom(c, d, 43);
    EXPECT_EQ(a.bytes, b.bytes) << stringifyDistribution(d).str();
    EXPECT_NE(a.bytes, c.bytes) << stringifyDistribution(d).str();
  }
}

TEST(InputsTest, FloatDistributionsHaveTheirRanges) {
  auto range = [](Distribution d, ElementKind kind, double &lo, double &hi,
                  double &minAbs, bool &anyPositive, bool &anyNegative) {
    HostBuffer b(spec(kind, {4096}));
    fillRandom(b, d, 7);
    lo = INFINITY, hi = -INFINITY, minAbs = INFINITY;
    anyPositive = anyNegative = false;
    for (int64_t i = 0; i < 4096; ++i) {
      double v = b.getAsDouble(i);
      EXPECT_TRUE(std::isfinite(v));
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      minAbs = std::min(minAbs, std::fabs(v));
      anyPositive |= v > 0;
      anyNegative |= v < 0;
    }
  };
  double lo, hi, minAbs;
  bool pos, neg;
  range(Distribution::Uniform, ElementKind::F32, lo, hi, minAbs, pos, neg);
  EXPECT_GE(lo, -1.0);
  EXPECT_LE(hi, 1.0);
  EXPECT_TRUE(pos && neg);

  range(Distribution::Normal, ElementKind::F32, lo, hi, minAbs, pos, neg);
  EXPECT_LT(lo, -2.0); // 4096 normal samples reach past 2 sigma
  EXPECT_GT(hi, 2.0);

  range(Distribution::Large, ElementKind::F32, lo, hi, minAbs, pos, neg);
  EXPECT_GE(minAbs, 500.0);
  EXPECT_LE(std::max(-lo, hi), 1000.0);
  EXPECT_TRUE(pos && neg);

  range(Distribution::Large, ElementKind::F16, lo, hi, minAbs, pos, neg);
  EXPECT_GE(minAbs, 50.0);
  EXPECT_LE(std::max(-lo, hi), 100.0);

  range(Distribution::Tiny, ElementKind::F32, lo, hi, minAbs, pos, neg);
  EXPECT_GE(minAbs, 0.5e-3 * (1 - 1e-6));
  EXPECT_LE(std::max(-lo, hi), 1e-3 * (1 + 1e-6));

  range(Distribution::Negative, ElementKind::BF16, lo, hi, minAbs, pos, neg);
  EXPECT_LT(hi, 0.0);
  EXPECT_GE(lo, -1.0);
  EXPECT_FALSE(pos);
}

TEST(InputsTest, IntegerDistributionsStaySmall) {
  HostBuffer b(spec(ElementKind::I8, {1000}));
  fillRandom(b, Distribution::Large, 3);
  for (int64_t i = 0; i < 1000; ++i)
    EXPECT_LE(std::fabs(b.getAsDouble(i)), 100.0);
  fillRandom(b, Distribution::Negative, 3);
  for (int64_t i = 0; i < 1000; ++i)
    EXPECT_LT(b.getAsDouble(i), 0.0);
  HostBuffer bits(spec(ElementKind::I1, {1000}));
  fillRandom(bits, Distribution::Uniform, 3);
  int ones = 0;
  for (int64_t i = 0; i < 1000; ++i) {
    ASSERT_LE(bits.bytes[i], 1);
    ones += bits.bytes[i];
  }
  EXPECT_GT(ones, 400);
  EXPECT_LT(ones, 600);
}

TEST(InputsTest, PrefillIsNaNForFloatsAndASentinelForIntegers) {
  for (ElementKind kind : {ElementKind::F64, ElementKind::F32, ElementKind::F16,
                           ElementKind::BF16}) {
    HostBuffer b(spec(kind));
    fillPrefill(b);
    for (int64_t i = 0; i < b.spec.numElements(); ++i)
      ASSERT_TRUE(std::isnan(b.getAsDouble(i)));
  }
  HostBuffer i32(spec(ElementKind::I32));
  fillPrefill(i32);
  EXPECT_EQ(i32.getAsDouble(0), double(0x5a5a5a5a));
}

TEST(InputsTest, DifferentFromDiffersEverywhere) {
  for (ElementKind kind :
       {ElementKind::I64, ElementKind::I32, ElementKind::I8, ElementKind::I1}) {
    HostBuffer ref(spec(kind)), other(spec(kind));
    fillRandom(ref, Distribution::Uniform, 11);
    fillDifferentFrom(other, ref);
    for (int64_t i = 0; i < ref.spec.numElements(); ++i)
      ASSERT_NE(ref.getAsDouble(i), other.getAsDouble(i))
          << stringifyElementKind(kind).str() << " at " << i;
  }
}

TEST(InputsTest, GenerateArgumentsPrefillsOnlyWriteOnlyOutputs) {
  KernelSignature sig;
  sig.entry = "kernel";
  sig.args = {spec(ElementKind::F32), spec(ElementKind::F32, {7, 9}, true),
              spec(ElementKind::F32, {7, 9}, true)};
  SmallVector<bool> read = {false, true, false};
  std::vector<HostBuffer> args =
      generateArguments(sig, read, Distribution::Uniform, 5);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_TRUE(std::isfinite(args[0].getAsDouble(0)));
  EXPECT_TRUE(std::isfinite(args[1].getAsDouble(0))); // read: generated
  EXPECT_TRUE(std::isnan(args[2].getAsDouble(0)));    // write-only: NaN
  // Every argument has a seed of its own.
  EXPECT_NE(args[0].bytes, args[1].bytes);
}

/// FNV-1a of the bytes: a short name for a buffer's exact contents.
static uint64_t fingerprint(const HostBuffer &b) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (uint8_t byte : b.bytes)
    h = (h ^ byte) * 0x100000001b3ULL;
  return h;
}

// The generator is parallel over chunks of elements; a seed must still name
// the bytes it named when it was one sequential stream. The fingerprints
// below were taken from the sequential generator before it was split into
// chunks; the size is odd and spans several chunks.
TEST(InputsTest, ParallelGenerationKeepsTheSequentialValues) {
  struct Case {
    ElementKind kind;
    Distribution d;
    uint64_t expected;
  };
  const Case cases[] = {
      {ElementKind::F32, Distribution::Uniform, 0xe293c86e163f4b5fULL},
      {ElementKind::F32, Distribution::Normal, 0x24563fb72e05b5f0ULL},
      {ElementKind::F32, Distribution::Large, 0x969f22b4e8b44704ULL},
      {ElementKind::F32, Distribution::Tiny, 0xe31bee2dc3e650f4ULL},
      {ElementKind::F32, Distribution::Negative, 0x4e794a6312de848dULL},
      {ElementKind::F16, Distribution::Normal, 0x35c620fb5bee604aULL},
      {ElementKind::BF16, Distribution::Large, 0xb46b12e48fcb1bfbULL},
      {ElementKind::F64, Distribution::Normal, 0xb1e89ec94b73c909ULL},
      {ElementKind::I32, Distribution::Large, 0x50513a7ed355a68cULL},
      {ElementKind::I8, Distribution::Negative, 0x493fdf3b2f3aa143ULL},
      {ElementKind::I1, Distribution::Uniform, 0xb73c5580556d4c33ULL},
  };
  for (const Case &c : cases) {
    HostBuffer b(spec(c.kind, {3, 100003}));
    fillRandom(b, c.d, 0x5eed);
    EXPECT_EQ(fingerprint(b), c.expected)
        << stringifyDistribution(c.d).str() << " "
        << stringifyElementKind(c.kind).str();
    // The whole buffer as one sequential stream, in this thread.
    HostBuffer sequential(spec(c.kind, {3, 100003}));
    fillRandomRange(sequential, c.d, 0x5eed, 0, 3 * 100003);
    EXPECT_EQ(sequential.bytes, b.bytes);
  }
}

// The special-values trial holds every kind of special value, masks whole
// rows and causal tails with -inf, and keeps most rows plain.
TEST(InputsTest, SpecialValuesHoldEveryKindAndTheMasks) {
  for (ElementKind kind :
       {ElementKind::F32, ElementKind::F16, ElementKind::BF16}) {
    HostBuffer b(spec(kind, {64, 32}));
    fillRandom(b, Distribution::Special, 11);
    int64_t nan = 0, posInf = 0, negInf = 0, negZero = 0, denormal = 0,
            plain = 0;
    for (int64_t i = 0; i < 64 * 32; ++i) {
      double v = b.getAsDouble(i);
      if (std::isnan(v))
        ++nan;
      else if (std::isinf(v))
        ++(v > 0 ? posInf : negInf);
      else if (v == 0 && std::signbit(v))
        ++negZero;
      else if (v != 0 && std::fabs(v) < 0x1.0p-14 &&
               std::fabs(v) <
                   (kind == ElementKind::F16 ? 0x1.0p-14 : 0x1.0p-126))
        ++denormal;
      else
        ++plain;
    }
    EXPECT_GT(nan, 0) << stringifyElementKind(kind).str();
    EXPECT_GT(posInf, 0);
    EXPECT_GT(negZero, 0);
    EXPECT_GT(denormal, 0);
    // Rows 2, 10, ... are -inf throughout; rows 5, 13, ... masked after
    // their position.
    for (int64_t c = 0; c < 32; ++c)
      EXPECT_EQ(b.getAsDouble(10 * 32 + c), -INFINITY);
    EXPECT_TRUE(std::isfinite(b.getAsDouble(5 * 32 + 5)));
    EXPECT_EQ(b.getAsDouble(5 * 32 + 6), -INFINITY);
    EXPECT_GT(negInf, 8 * 32);
    EXPECT_GT(plain, 64 * 32 / 2);
  }
  // The same seed gives the same bytes, in parallel chunks too.
  HostBuffer a(spec(ElementKind::F32, {1 << 18})),
      c(spec(ElementKind::F32, {1 << 18}));
  fillRandom(a, Distribution::Special, 3);
  for (int64_t begin = 0; begin < (1 << 18); begin += 4096)
    fillRandomRange(c, Distribution::Special, 3, begin, begin + 4096);
  EXPECT_EQ(a.bytes, c.bytes);
}

// A secondary argument of the special-values trial holds at most one
// special value per column of each slice, in columns 3 mod 4 only, so that
// one inf in a column of V or B reaches the result alone; over its columns
// it still holds special values.
TEST(InputsTest, SecondaryArgumentsHoldOneSpecialValueAColumn) {
  KernelSignature sig;
  sig.entry = "kernel";
  sig.args = {spec(ElementKind::F32, {4, 64, 32}),
              spec(ElementKind::BF16, {4, 64, 32}),
              spec(ElementKind::F32, {4, 64, 32}, true)};
  SmallVector<bool> read = {false, false, false};
  std::vector<HostBuffer> args =
      generateArguments(sig, read, Distribution::Special, 21);
  const HostBuffer &v = args[1];
  int64_t specials = 0;
  for (int64_t slice = 0; slice < 4; ++slice)
    for (int64_t c = 0; c < 32; ++c) {
      int64_t inColumn = 0;
      for (int64_t r = 0; r < 64; ++r) {
        double x = v.getAsDouble((slice * 64 + r) * 32 + c);
        bool special = !std::isfinite(x) || (x == 0 && std::signbit(x)) ||
                       (x != 0 && std::fabs(x) < 0x1.0p-126);
        inColumn += special;
      }
      EXPECT_LE(inColumn, c % 4 == 3 ? 1 : 0) << slice << ", " << c;
      specials += inColumn;
    }
  EXPECT_GT(specials, 0);
}

// Secondary arguments with as many slices take turns by slice (K's special
// values would otherwise make every row of V's heads non-finite); one with
// fewer slices (a mask shared by the heads) holds them in every slice.
TEST(InputsTest, SecondaryArgumentsTakeTurnsBySlice) {
  KernelSignature sig;
  sig.entry = "kernel";
  sig.args = {spec(ElementKind::F32, {4, 64, 128}),
              spec(ElementKind::F32, {4, 64, 128}),
              spec(ElementKind::F32, {4, 64, 128}),
              spec(ElementKind::F32, {64, 128}),
              spec(ElementKind::F32, {4, 64, 128}, true)};
  SmallVector<bool> read = {false, false, false, false, false};
  std::vector<HostBuffer> args =
      generateArguments(sig, read, Distribution::Special, 33);
  auto specialsIn = [](const HostBuffer &b, int64_t begin, int64_t end) {
    int64_t n = 0;
    for (int64_t e = begin; e < end; ++e) {
      double x = b.getAsDouble(e);
      n += !std::isfinite(x) || (x == 0 && std::signbit(x)) ||
           (x != 0 && std::fabs(x) < 0x1.0p-126);
    }
    return n;
  };
  // 32 columns a slice may hold one each: none of them special by chance
  // has odds (6/11)^32.
  constexpr int64_t slice = 64 * 128;
  for (int64_t s = 0; s < 4; ++s) {
    // Three secondaries: K (index 0), V (index 1), the mask (2, one slice).
    EXPECT_EQ(specialsIn(args[1], s * slice, (s + 1) * slice) > 0, s % 3 == 0)
        << "K, slice " << s;
    EXPECT_EQ(specialsIn(args[2], s * slice, (s + 1) * slice) > 0, s % 3 == 1)
        << "V, slice " << s;
  }
  EXPECT_GT(specialsIn(args[3], 0, 64 * 128), 0);
}

TEST(InputsTest, FiniteGarbageIsFiniteAndNotZero) {
  HostBuffer b(spec(ElementKind::F32, {1000}));
  fillFiniteGarbage(b, 5);
  int64_t zeros = 0;
  for (int64_t i = 0; i < 1000; ++i) {
    EXPECT_TRUE(std::isfinite(b.getAsDouble(i)));
    zeros += b.getAsDouble(i) == 0;
  }
  EXPECT_LT(zeros, 2);
}

// A timing set after the first draws only the argument it changes; the
// sets are those of drawing every argument and keeping that one (the
// evaluations' inputs, and what a seed names, do not change).
TEST(InputsTest, TimingSetsDrawOnlyTheArgumentTheyChange) {
  KernelSignature sig;
  sig.entry = "kernel";
  sig.args = {spec(ElementKind::I32), spec(ElementKind::F32, {5, 3}),
              spec(ElementKind::F32, {3, 4}),
              spec(ElementKind::F32, {5, 4}, true)};
  SmallVector<bool> read = {false, false, false, true};
  std::vector<TimingSet> sets = makeTimingSets(sig, read, 77);
  ASSERT_EQ(sets.size(), 3u);
  std::vector<HostBuffer> first =
      generateArguments(sig, read, sets[0].dist, sets[0].seed);
  for (size_t i = 0; i < first.size(); ++i)
    EXPECT_EQ(sets[0].args[i].bytes, first[i].bytes) << i;
  // Set k changes read argument k - 1 (the integer input, then the first
  // float one, whose special treatment as the primary argument holds).
  for (unsigned k = 1; k < 3; ++k) {
    std::vector<HostBuffer> all =
        generateArguments(sig, read, sets[k].dist, sets[k].seed);
    for (size_t i = 0; i < all.size(); ++i) {
      bool changed = i == k - 1;
      EXPECT_EQ(sets[k].args[i].bytes, changed ? all[i].bytes : first[i].bytes)
          << "set " << k << ", argument " << i;
    }
  }
}

// applyRecipe on arguments drawn once gives what makeArguments draws anew.
TEST(InputsTest, ARecipeAppliedToDrawnArgumentsIsMakeArguments) {
  KernelSignature sig;
  sig.entry = "kernel";
  sig.args = {spec(ElementKind::F32), spec(ElementKind::F32, {7, 9}, true)};
  SmallVector<bool> read = {false, false};
  ArgumentRecipe recipe;
  recipe.dist = Distribution::Normal;
  recipe.seed = 9;
  recipe.finitePrefill = true;
  std::vector<HostBuffer> drawn =
      generateArguments(sig, read, recipe.dist, recipe.seed);
  std::vector<HostBuffer> a = applyRecipe(drawn, sig, read, recipe);
  std::vector<HostBuffer> b = makeArguments(sig, read, recipe);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(a[i].bytes, b[i].bytes) << i;
  EXPECT_TRUE(std::isfinite(a[1].getAsDouble(0))); // the finite prefill
}
