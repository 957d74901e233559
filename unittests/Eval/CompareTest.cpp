//===- CompareTest.cpp - Tolerances and output comparison -----------------===//

#include "stark/Eval/Compare.h"

#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::stark;

static HostBuffer buffer(ElementKind kind, SmallVector<int64_t> shape,
                         ArrayRef<double> values) {
  ArgSpec s;
  s.kind = kind;
  s.shape = std::move(shape);
  s.isOutput = true;
  HostBuffer b(s);
  for (auto [i, v] : llvm::enumerate(values))
    b.setFromDouble(i, v);
  return b;
}

TEST(CompareTest, TolerancesNeverExceedKernelBench) {
  for (int64_t k : {1, 2, 17, 100, 1000, 1 << 20}) {
    Tolerance f32 = getTolerance(ElementKind::F32, k);
    EXPECT_LE(f32.atol, 1e-4);
    EXPECT_LE(f32.rtol, 1e-4);
    EXPECT_LE(getTolerance(ElementKind::F16, k).atol, 1e-2);
    EXPECT_LE(getTolerance(ElementKind::BF16, k).rtol, 1e-2);
    EXPECT_LE(getTolerance(ElementKind::F64, k).atol, 1e-8);
    EXPECT_EQ(getTolerance(ElementKind::I32, k).atol, 0);
  }
  EXPECT_DOUBLE_EQ(getTolerance(ElementKind::F32, 1 << 20).atol, 1e-4);
  EXPECT_DOUBLE_EQ(getTolerance(ElementKind::F16, 1).atol, 1e-2);
}

TEST(CompareTest, ShortReductionsAreTighter) {
  double eps = std::ldexp(1.0, -23);
  EXPECT_DOUBLE_EQ(getTolerance(ElementKind::F32, 1).atol, 64 * eps);
  EXPECT_DOUBLE_EQ(getTolerance(ElementKind::F32, 16).atol, 64 * eps * 4);
  EXPECT_DOUBLE_EQ(getTolerance(ElementKind::F32, 0).atol, 64 * eps);
  double last = 0;
  for (int64_t k = 1; k < 100000; k *= 3) {
    double t = getTolerance(ElementKind::F32, k).atol;
    EXPECT_GE(t, last);
    last = t;
  }
}

TEST(CompareTest, ExactAndWithinTolerancePass) {
  CompareOptions o;
  o.tolerance = {1e-4, 1e-4};
  HostBuffer exp = buffer(ElementKind::F32, {3}, {1.0, -2.0, 0.0});
  HostBuffer got = buffer(ElementKind::F32, {3}, {1.00019, -2.0002, 9e-5});
  CompareResult r = compareOutput(2, got, exp, nullptr, o);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.numMismatches, 0);
  ASSERT_TRUE(r.worst);
  EXPECT_TRUE(r.worst->passed);
}

TEST(CompareTest, JustOutsideToleranceFailsWithTheWorstElement) {
  CompareOptions o;
  o.tolerance = {1e-4, 1e-4};
  // allowed(|exp| = 2) = 1e-4 + 2e-4 = 3e-4.
  HostBuffer exp = buffer(ElementKind::F32, {2, 3}, {0, 0, 0, 0, 2.0, 0});
  HostBuffer got = buffer(ElementKind::F32, {2, 3}, {0, 0, 0, 0, 2.0004, 5e-5});
  CompareResult r = compareOutput(3, got, exp, nullptr, o);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.numMismatches, 1);
  ASSERT_TRUE(r.worst);
  EXPECT_EQ(r.worst->argIndex, 3u);
  EXPECT_EQ(r.worst->flatIndex, 4);
  EXPECT_EQ(r.worst->index, (SmallVector<int64_t>{1, 1}));
  EXPECT_NEAR(r.worst->absError, 4e-4, 1e-6);
  EXPECT_NEAR(r.worst->allowed, 3e-4, 1e-9);
  EXPECT_NEAR(r.worst->relError, 2e-4, 1e-6);
  EXPECT_FALSE(r.worst->passed);
  std::string text = describeWorstElement(*r.worst);
  EXPECT_NE(text.find("argument #3 [1, 1] (flat 4)"), std::string::npos)
      << text;
}

TEST(CompareTest, NonFiniteRules) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr double inf = std::numeric_limits<double>::infinity();
  CompareOptions o;
  o.tolerance = {1e-2, 1e-2};
  auto passes = [&](double got, double exp) {
    return compareOutput(0, buffer(ElementKind::F32, {1}, {got}),
                         buffer(ElementKind::F32, {1}, {exp}), nullptr, o)
        .passed;
  };
  EXPECT_FALSE(passes(nan, 1.0));
  EXPECT_FALSE(passes(inf, 1.0));
  EXPECT_FALSE(passes(-inf, 1e30));
  EXPECT_TRUE(passes(nan, nan));
  EXPECT_FALSE(passes(1.0, nan));
  EXPECT_TRUE(passes(inf, inf));
  EXPECT_FALSE(passes(-inf, inf));
  EXPECT_FALSE(passes(1e30, inf));
  CompareResult r =
      compareOutput(0, buffer(ElementKind::F32, {2}, {nan, 1.0}),
                    buffer(ElementKind::F32, {2}, {nan, inf}), nullptr, o);
  EXPECT_EQ(r.numReferenceNonFinite, 2);
}

TEST(CompareTest, IntegersMustMatchExactly) {
  CompareOptions o; // the evaluator passes getTolerance(I32, K) = 0
  HostBuffer exp = buffer(ElementKind::I32, {3}, {1, 2, 3});
  EXPECT_TRUE(compareOutput(0, buffer(ElementKind::I32, {3}, {1, 2, 3}), exp,
                            nullptr, o)
                  .passed);
  CompareResult r = compareOutput(0, buffer(ElementKind::I32, {3}, {1, 2, 4}),
                                  exp, nullptr, o);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.worst->flatIndex, 2);
}

TEST(CompareTest, HighPrecisionReferenceIsAnAlternative) {
  CompareOptions o;
  o.tolerance = {1e-2, 1e-2};
  // The f16 baseline is off; the candidate is close to the exact value.
  HostBuffer baseline = buffer(ElementKind::F16, {1}, {1.5});
  HostBuffer exact = buffer(ElementKind::F32, {1}, {1.25});
  HostBuffer got = buffer(ElementKind::F16, {1}, {1.25});
  EXPECT_FALSE(compareOutput(0, got, baseline, nullptr, o).passed);
  CompareResult r = compareOutput(0, got, baseline, &exact, o);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.worst->reference, "high_precision");
  ASSERT_TRUE(r.worst->expectedHighPrecision);
  EXPECT_EQ(*r.worst->expectedHighPrecision, 1.25);
  // Far from both still fails.
  HostBuffer bad = buffer(ElementKind::F16, {1}, {2.0});
  EXPECT_FALSE(compareOutput(0, bad, baseline, &exact, o).passed);
}

TEST(CompareTest, AtolScaleCountsInUnitsOfTheOutput) {
  CompareOptions o;
  o.tolerance = {1e-4, 1e-4};
  HostBuffer exp = buffer(ElementKind::F32, {2}, {1e6, 10});
  HostBuffer got = buffer(ElementKind::F32, {2}, {1e6, 10.5});
  EXPECT_FALSE(compareOutput(0, got, exp, nullptr, o).passed);
  o.atolScale = getRootMeanSquare(exp);
  EXPECT_NEAR(o.atolScale, 1e6 / std::sqrt(2.0), 1);
  EXPECT_TRUE(compareOutput(0, got, exp, nullptr, o).passed);
}

TEST(CompareTest, Delinearize) {
  EXPECT_EQ(delinearize(0, {3, 4, 5}), (SmallVector<int64_t>{0, 0, 0}));
  EXPECT_EQ(delinearize(59, {3, 4, 5}), (SmallVector<int64_t>{2, 3, 4}));
  EXPECT_EQ(delinearize(27, {3, 4, 5}), (SmallVector<int64_t>{1, 1, 2}));
  EXPECT_TRUE(delinearize(0, {}).empty());
}

// The absolute bound never drops below atolFloor (the evaluator's twice the
// baseline's own error), and only the absolute part moves.
TEST(CompareTest, AtolFloorRaisesOnlyTheAbsoluteBound) {
  HostBuffer exp = buffer(ElementKind::F32, {2}, {0.0125, 100.0});
  HostBuffer got = buffer(ElementKind::F32, {2}, {0.01265, 100.0});
  CompareOptions o;
  o.tolerance = {1e-4, 1e-4};
  EXPECT_FALSE(compareOutput(0, got, exp, nullptr, o).passed);
  o.atolFloor = 2e-4;
  CompareResult r = compareOutput(0, got, exp, nullptr, o);
  EXPECT_TRUE(r.passed);
  ASSERT_TRUE(r.worst);
  EXPECT_NEAR(r.worst->allowed, 2e-4 + 1e-4 * 0.0125, 1e-12);
  // A floor below the scaled atol changes nothing.
  o.atolFloor = 1e-6;
  EXPECT_FALSE(compareOutput(0, got, exp, nullptr, o).passed);
}

// The conditioning buffer raises the bound of its own element only: an
// ill-conditioned element passes with its room, a neighbour with the same
// error but no room still fails.
TEST(CompareTest, ConditioningRaisesTheBoundPerElement) {
  HostBuffer exp = buffer(ElementKind::F32, {3}, {0.18, 0.5, 1.0});
  HostBuffer got = buffer(ElementKind::F32, {3}, {0.42, 0.5, 1.0});
  CompareOptions o;
  o.tolerance = {1e-4, 1e-4};
  EXPECT_FALSE(compareOutput(0, got, exp, nullptr, o).passed);
  HostBuffer room = buffer(ElementKind::F64, {3}, {0.0, 0.0, 0.0});
  HostBuffer moved = buffer(ElementKind::F64, {3}, {0.33, 0.5, INFINITY});
  HostBuffer high = buffer(ElementKind::F64, {3}, {0.18, 0.5, 1.0});
  raiseToTwiceTheMove(room, moved, high);
  EXPECT_DOUBLE_EQ(room.getAsDouble(0), 2 * 0.15);
  EXPECT_DOUBLE_EQ(room.getAsDouble(1), 0.0);
  EXPECT_DOUBLE_EQ(room.getAsDouble(2), 0.0); // an overflow gives no room
  o.conditioning = &room;
  CompareResult r = compareOutput(0, got, exp, nullptr, o);
  EXPECT_TRUE(r.passed);
  // The same error one element over, where the result does not move.
  HostBuffer shifted = buffer(ElementKind::F32, {3}, {0.18, 0.74, 1.0});
  r = compareOutput(0, shifted, exp, nullptr, o);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.numMismatches, 1);
  ASSERT_TRUE(r.worst);
  EXPECT_EQ(r.worst->flatIndex, 1);
}

// The room of a program's own rounding: twice each element's move, at
// least 6 times the move's RMS over the element's row (its last
// dimension); a non-finite move counts as none.
TEST(CompareTest, RoundingRoomPerElementAndRow) {
  HostBuffer exact = buffer(ElementKind::F64, {2, 4}, {0, 0, 0, 0, 1, 1, 1, 1});
  HostBuffer rounded =
      buffer(ElementKind::F64, {2, 4}, {0.5, 0, 0, 0, 1, 1, 1, INFINITY});
  HostBuffer room = buffer(ElementKind::F64, {2, 4}, {});
  setRoundingRoom(room, rounded, exact, 6);
  // Row 0: moves 0.5, 0, 0, 0: RMS 0.25, 6 of them 1.5 > twice 0.5.
  for (int64_t e = 0; e < 4; ++e)
    EXPECT_DOUBLE_EQ(room.getAsDouble(e), 1.5) << e;
  // Row 1: the infinite move gives no room, and none to its row.
  for (int64_t e = 4; e < 8; ++e)
    EXPECT_DOUBLE_EQ(room.getAsDouble(e), 0.0) << e;
  // Twice the move where it is above the row's part.
  setRoundingRoom(room, rounded, exact, 1);
  EXPECT_DOUBLE_EQ(room.getAsDouble(0), 1.0);
  EXPECT_DOUBLE_EQ(room.getAsDouble(1), 0.25);
  // raiseToAtLeast keeps the larger of two rooms.
  HostBuffer other = buffer(ElementKind::F64, {2, 4}, {2, 0, 0, 0, 0, 0, 0, 3});
  raiseToAtLeast(room, other);
  EXPECT_DOUBLE_EQ(room.getAsDouble(0), 2.0);
  EXPECT_DOUBLE_EQ(room.getAsDouble(1), 0.25);
  EXPECT_DOUBLE_EQ(room.getAsDouble(7), 3.0);
}

TEST(CompareTest, MaxAbsDifferenceSkipsNonFinite) {
  HostBuffer a = buffer(ElementKind::F32, {4}, {1.0, 2.0, NAN, INFINITY});
  HostBuffer b = buffer(ElementKind::F64, {4}, {1.5, 1.75, 0.0, 0.0});
  EXPECT_DOUBLE_EQ(getMaxAbsDifference(a, b), 0.5);
}

// The comparison runs over chunks in parallel; its verdict must be the one
// a single pass gives: every mismatch counted once, and of equally bad
// elements in different chunks, the first one named.
TEST(CompareTest, ParallelComparisonMatchesOnePass) {
  int64_t n = 3 * 65536 + 5;
  std::vector<double> values(n);
  for (int64_t i = 0; i < n; ++i)
    values[i] = double(i % 101) / 7.0;
  HostBuffer expected = buffer(ElementKind::F32, {n}, values);
  HostBuffer got = expected;
  // The same error on equal values in chunks 2, 1 and 3, a smaller one in
  // chunk 0, and a non-finite reference element in chunk 3.
  int64_t same[] = {2 * 65536 + 7, 65536 + 7 + 101 * 3, 3 * 65536 + 3};
  for (int64_t i : same) {
    values[i] = 0.5;
    expected.setFromDouble(i, 0.5);
    got.setFromDouble(i, 1.5);
  }
  got.setFromDouble(10, got.getAsDouble(10) + 0.01);
  expected.setFromDouble(n - 1, std::numeric_limits<double>::infinity());
  got.setFromDouble(n - 1, std::numeric_limits<double>::infinity());

  CompareOptions options;
  options.tolerance = getTolerance(ElementKind::F32, 1);
  CompareResult r = compareOutput(2, got, expected, nullptr, options);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.numElements, n);
  EXPECT_EQ(r.numMismatches, 4);
  EXPECT_EQ(r.numReferenceNonFinite, 1);
  ASSERT_TRUE(r.worst);
  int64_t first = *std::min_element(std::begin(same), std::end(same));
  EXPECT_EQ(r.worst->flatIndex, first);
  EXPECT_DOUBLE_EQ(r.worst->absError, 1.0);

  // The largest difference, wherever its chunk.
  EXPECT_DOUBLE_EQ(getMaxAbsDifference(got, expected), 1.0);
}

// The judge widens 16-bit elements without APFloat; every bit pattern must
// read as APFloat reads it (NaN as NaN, signed zeros and subnormals exact).
TEST(CompareTest, SixteenBitElementsWidenExactly) {
  for (auto [kind, sem] :
       {std::pair{ElementKind::F16, &llvm::APFloat::IEEEhalf()},
        std::pair{ElementKind::BF16, &llvm::APFloat::BFloat()}}) {
    ArgSpec s;
    s.kind = kind;
    s.shape = {1 << 16};
    HostBuffer b(s);
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      uint16_t v = uint16_t(bits);
      std::memcpy(b.bytes.data() + 2 * bits, &v, 2);
    }
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      double want =
          llvm::APFloat(*sem, llvm::APInt(16, bits)).convertToDouble();
      double got = b.getAsDouble(bits);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << bits;
        continue;
      }
      EXPECT_EQ(got, want) << std::hex << bits;
      EXPECT_EQ(std::signbit(got), std::signbit(want)) << std::hex << bits;
    }
  }
}

// Narrowing to 16 bits rounds as APFloat does (to nearest, ties to even,
// overflow to infinity), straight from the double: every value exactly
// between two neighbours and just beside it, and random doubles of every
// magnitude the formats reach.
TEST(CompareTest, SixteenBitElementsNarrowAsApFloatRounds) {
  for (auto [kind, sem] :
       {std::pair{ElementKind::F16, &llvm::APFloat::IEEEhalf()},
        std::pair{ElementKind::BF16, &llvm::APFloat::BFloat()}}) {
    std::vector<double> values = {0.0,     -0.0,     1e300,
                                  -1e300,  1e-300,   65504.0,
                                  65520.0, 65519.99, 3.3895313892515355e38};
    for (uint32_t bits = 0;
         bits < 0x7c00 || (kind == ElementKind::BF16 && bits < 0x7f80);
         ++bits) {
      double lo = llvm::APFloat(*sem, llvm::APInt(16, bits)).convertToDouble();
      double hi =
          llvm::APFloat(*sem, llvm::APInt(16, bits + 1)).convertToDouble();
      double mid = lo + (hi - lo) / 2;
      for (double v :
           {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e308)}) {
        values.push_back(v);
        values.push_back(-v);
      }
    }
    uint64_t state = 42;
    for (int i = 0; i < 200000; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      double m = double(state >> 11) * 0x1.0p-53;
      values.push_back((i % 2 ? -1 : 1) *
                       std::ldexp(m, int(state % 300) - 150));
    }
    ArgSpec s;
    s.kind = kind;
    s.shape = {int64_t(values.size())};
    HostBuffer b(s);
    for (auto [i, v] : llvm::enumerate(values))
      b.setFromDouble(int64_t(i), v);
    for (auto [i, v] : llvm::enumerate(values)) {
      llvm::APFloat want(v);
      bool losesInfo;
      want.convert(*sem, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
      uint16_t got;
      std::memcpy(&got, b.bytes.data() + 2 * i, 2);
      ASSERT_EQ(got, uint16_t(want.bitcastToAPInt().getZExtValue()))
          << (kind == ElementKind::F16 ? "f16 " : "bf16 ") << v;
    }
  }
}
