//===- Compare.cpp - Tolerances and element-wise output comparison --------===//

#include "stark/Eval/Compare.h"
#include "stark/Eval/Inputs.h"

#include "llvm/Support/Compiler.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace mlir;
using namespace mlir::stark;

double mlir::stark::getMachineEpsilon(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
    return 0x1.0p-52;
  case ElementKind::F32:
    return 0x1.0p-23;
  case ElementKind::F16:
    return 0x1.0p-10;
  case ElementKind::BF16:
    return 0x1.0p-7;
  default:
    return 0;
  }
}

double mlir::stark::getToleranceCap(ElementKind kind) {
  switch (kind) {
  case ElementKind::F64:
    return 1e-8;
  case ElementKind::F32:
    return 1e-4;
  case ElementKind::F16:
  case ElementKind::BF16:
    return 1e-2;
  default:
    return 0;
  }
}

Tolerance mlir::stark::getTolerance(ElementKind kind, int64_t reductionLength) {
  double k = double(std::max<int64_t>(reductionLength, 1));
  // 64 ulps per sqrt(K): room for a different summation order, FMA
  // contraction or a polynomial approximation of a math function, but
  // far below the cap for short reductions.
  double t = std::min(getToleranceCap(kind),
                      64.0 * getMachineEpsilon(kind) * std::sqrt(k));
  return {t, t};
}

Tolerance mlir::stark::getTf32Tolerance(int64_t reductionLength) {
  double k = double(std::max<int64_t>(reductionLength, 1));
  return {4 * 0x1.0p-11 * std::sqrt(k), 1e-2};
}

SmallVector<int64_t> mlir::stark::delinearize(int64_t flat,
                                              ArrayRef<int64_t> shape) {
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] > 0) {
      index[d] = flat % shape[d];
      flat /= shape[d];
    }
  }
  return index;
}

namespace {
/// Element i of a buffer as a double: straight from the bytes for f32 and
/// f64 (a comparison's common case, about a third of its time otherwise
/// spent in the per-element dispatch), through getAsDouble for the rest.
template <class T> struct DirectElements {
  const T *data;
  double operator()(int64_t i) const { return double(data[i]); }
};
struct AnyElements {
  const HostBuffer *buffer;
  double operator()(int64_t i) const { return buffer->getAsDouble(i); }
};
} // namespace

/// Calls f with the fastest accessor of `buffer`'s elements.
template <class F> static void withElements(const HostBuffer &buffer, F &&f) {
  switch (buffer.spec.kind) {
  case ElementKind::F32:
    return f(DirectElements<float>{
        reinterpret_cast<const float *>(buffer.bytes.data())});
  case ElementKind::F64:
    return f(DirectElements<double>{
        reinterpret_cast<const double *>(buffer.bytes.data())});
  default:
    return f(AnyElements{&buffer});
  }
}

double mlir::stark::getRootMeanSquare(const HostBuffer &buffer) {
  // Sequential on purpose: a sum in another order rounds differently, and
  // this value scales the absolute bound of the large distribution, so a
  // parallel sum could move a verdict at the edge of the bound.
  double sum = 0;
  int64_t count = 0;
  withElements(buffer, [&](auto element) {
    for (int64_t i = 0, e = buffer.spec.numElements(); i < e; ++i) {
      double v = element(i);
      if (std::isfinite(v)) {
        sum += v * v;
        ++count;
      }
    }
  });
  return count ? std::sqrt(sum / double(count)) : 0;
}

namespace {
/// The verdict on one element against one reference value.
struct ElementCheck {
  bool passed;
  double absError;
  double allowed;
  double ratio;
};
} // namespace

LLVM_ATTRIBUTE_ALWAYS_INLINE static ElementCheck
checkFloat(double got, double exp, const CompareOptions &options,
           double extra = 0) {
  const Tolerance &tol = options.tolerance;
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(exp)) {
    bool ok = std::isnan(got);
    return {ok, ok ? 0 : inf, 0, ok ? 0 : inf};
  }
  if (std::isinf(exp)) {
    bool ok = got == exp;
    return {ok, ok ? 0 : inf, 0, ok ? 0 : inf};
  }
  double allowed = std::max(tol.atol * options.atolScale, options.atolFloor) +
                   tol.rtol * std::fabs(exp) + extra;
  if (!std::isfinite(got))
    return {false, inf, allowed, inf};
  double err = std::fabs(got - exp);
  double ratio = allowed > 0 ? err / allowed : (err > 0 ? inf : 0);
  return {err <= allowed, err, allowed, ratio};
}

namespace {
/// The verdict on a run of elements: counts and the worst element, the
/// first one on ties.
struct RangeVerdict {
  int64_t numMismatches = 0;
  int64_t numReferenceNonFinite = 0;
  int64_t worstIndex = -1;
  ElementCheck worstCheck{true, 0, 0, -1};
  bool worstUsedHigh = false;
};
} // namespace

template <class Got, class Expected>
static void compareRangeOf(Got got, Expected expected, bool isFloat,
                           const HostBuffer *highPrecision,
                           const CompareOptions &options, int64_t begin,
                           int64_t end, RangeVerdict &v) {
  for (int64_t i = begin; i < end; ++i) {
    double g = got(i);
    double e = expected(i);
    if (!std::isfinite(e))
      ++v.numReferenceNonFinite;
    ElementCheck check;
    bool usedHigh = false;
    if (!isFloat) {
      double err = std::fabs(g - e);
      check = {g == e, err, 0,
               g == e ? 0 : std::numeric_limits<double>::infinity()};
    } else {
      double extra =
          options.conditioning ? options.conditioning->getAsDouble(i) : 0;
      check = checkFloat(g, e, options, extra);
      if (!check.passed && highPrecision) {
        ElementCheck alt =
            checkFloat(g, highPrecision->getAsDouble(i), options, extra);
        if (alt.passed || alt.ratio < check.ratio) {
          check = alt;
          usedHigh = true;
        }
      }
    }
    if (!check.passed)
      ++v.numMismatches;
    if (check.ratio > v.worstCheck.ratio) {
      v.worstCheck = check;
      v.worstIndex = i;
      v.worstUsedHigh = usedHigh;
    }
  }
}

static void compareRange(const HostBuffer &got, const HostBuffer &expected,
                         const HostBuffer *highPrecision,
                         const CompareOptions &options, int64_t begin,
                         int64_t end, RangeVerdict &v) {
  bool isFloat = isFloatKind(expected.spec.kind);
  withElements(got, [&](auto g) {
    withElements(expected, [&](auto e) {
      compareRangeOf(g, e, isFloat, highPrecision, options, begin, end, v);
    });
  });
}

CompareResult mlir::stark::compareOutput(unsigned argIndex,
                                         const HostBuffer &got,
                                         const HostBuffer &expected,
                                         const HostBuffer *highPrecision,
                                         const CompareOptions &options) {
  CompareResult result;
  int64_t n = expected.spec.numElements();
  result.numElements = n;
  if (highPrecision && highPrecision->spec.numElements() != n)
    highPrecision = nullptr;
  CompareOptions checked = options;
  if (checked.conditioning && checked.conditioning->spec.numElements() != n)
    checked.conditioning = nullptr;

  // The worst element is the one with the largest error relative to what
  // it was allowed; ties keep the first. Chunks are judged in parallel and
  // merged in order with the same strict comparison, so the verdict is the
  // one a single pass over the elements gives.
  std::vector<RangeVerdict> verdicts(
      size_t(llvm::divideCeil(std::max<int64_t>(n, 0), kChunkElements)));
  forEachChunk(n, [&](int64_t begin, int64_t end) {
    compareRange(got, expected, highPrecision, checked, begin, end,
                 verdicts[size_t(begin / kChunkElements)]);
  });
  int64_t worstIndex = -1;
  ElementCheck worstCheck{true, 0, 0, -1};
  bool worstUsedHigh = false;
  for (const RangeVerdict &v : verdicts) {
    result.numMismatches += v.numMismatches;
    result.numReferenceNonFinite += v.numReferenceNonFinite;
    if (v.worstIndex >= 0 && v.worstCheck.ratio > worstCheck.ratio) {
      worstCheck = v.worstCheck;
      worstIndex = v.worstIndex;
      worstUsedHigh = v.worstUsedHigh;
    }
  }
  result.passed = result.numMismatches == 0;
  if (worstIndex < 0)
    return result;

  WorstElement w;
  w.argIndex = argIndex;
  w.flatIndex = worstIndex;
  w.index = delinearize(worstIndex, expected.spec.shape);
  w.got = got.getAsDouble(worstIndex);
  double baselineValue = expected.getAsDouble(worstIndex);
  if (highPrecision)
    w.expectedHighPrecision = highPrecision->getAsDouble(worstIndex);
  w.expected = worstUsedHigh ? *w.expectedHighPrecision : baselineValue;
  w.reference = worstUsedHigh ? "high_precision" : "baseline";
  w.absError = worstCheck.absError;
  w.relError =
      w.expected != 0
          ? w.absError / std::fabs(w.expected)
          : (w.absError == 0 ? 0 : std::numeric_limits<double>::infinity());
  w.allowed = worstCheck.allowed;
  w.ratio = worstCheck.ratio;
  w.passed = worstCheck.passed;
  result.worst = std::move(w);
  return result;
}

std::string mlir::stark::describeWorstElement(const WorstElement &w) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "argument #" << w.argIndex << " [";
  llvm::interleaveComma(w.index, os);
  os << "] (flat " << w.flatIndex << "): got " << llvm::format("%.9g", w.got)
     << ", expected " << llvm::format("%.9g", w.expected);
  if (w.reference != "baseline")
    os << " (" << w.reference << " reference)";
  os << ", abs error " << llvm::format("%.3g", w.absError) << ", rel error "
     << llvm::format("%.3g", w.relError) << ", allowed "
     << llvm::format("%.3g", w.allowed);
  return text;
}

double mlir::stark::getMaxAbsDifference(const HostBuffer &a,
                                        const HostBuffer &b) {
  int64_t n = std::min(a.spec.numElements(), b.spec.numElements());
  // A maximum does not depend on the order: chunks in parallel.
  std::vector<double> worst(
      size_t(llvm::divideCeil(std::max<int64_t>(n, 0), kChunkElements)), 0);
  forEachChunk(n, [&](int64_t begin, int64_t end) {
    double &w = worst[size_t(begin / kChunkElements)];
    for (int64_t i = begin; i < end; ++i) {
      double x = a.getAsDouble(i), y = b.getAsDouble(i);
      if (std::isfinite(x) && std::isfinite(y))
        w = std::max(w, std::fabs(x - y));
    }
  });
  double result = 0;
  for (double w : worst)
    result = std::max(result, w);
  return result;
}

void mlir::stark::raiseToTwiceTheMove(HostBuffer &conditioning,
                                      const HostBuffer &moved,
                                      const HostBuffer &reference) {
  forEachChunk(conditioning.spec.numElements(), [&](int64_t begin,
                                                    int64_t end) {
    for (int64_t e = begin; e < end; ++e) {
      double d = 2 * std::fabs(moved.getAsDouble(e) - reference.getAsDouble(e));
      if (std::isfinite(d) && d > conditioning.getAsDouble(e))
        conditioning.setFromDouble(e, d);
    }
  });
}

void mlir::stark::setRoundingRoom(HostBuffer &room, const HostBuffer &rounded,
                                  const HostBuffer &exact, double rmsUnits) {
  const ArgSpec &spec = room.spec;
  int64_t n = spec.numElements();
  int64_t row =
      spec.shape.empty() ? 1 : std::max<int64_t>(spec.shape.back(), 1);
  auto move = [&](int64_t e) {
    double d = rounded.getAsDouble(e) - exact.getAsDouble(e);
    return std::isfinite(d) ? d : 0.0;
  };
  forEachChunk(n / row, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      double squares = 0;
      for (int64_t e = r * row; e < (r + 1) * row; ++e)
        squares += move(e) * move(e);
      double rms = std::sqrt(squares / double(row));
      for (int64_t e = r * row; e < (r + 1) * row; ++e)
        room.setFromDouble(e, std::max(2 * std::fabs(move(e)), rmsUnits * rms));
    }
  });
}

void mlir::stark::raiseToAtLeast(HostBuffer &room, const HostBuffer &other) {
  forEachChunk(room.spec.numElements(), [&](int64_t begin, int64_t end) {
    for (int64_t e = begin; e < end; ++e)
      if (other.getAsDouble(e) > room.getAsDouble(e))
        room.setFromDouble(e, other.getAsDouble(e));
  });
}
