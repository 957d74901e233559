//===- Compare.h - Tolerances and element-wise output comparison -*- C++
//-*-===//
//
// Decides whether a candidate's output matches the reference, and if not,
// names the worst element. Tolerances depend on the element type and on the
// reduction length of the problem; they are never looser than KernelBench's
// (f32: 1e-4, f16/bf16: 1e-2, atol and rtol).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_COMPARE_H
#define STARK_EVAL_COMPARE_H

#include "stark/Target/Target.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::stark {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

/// The unit roundoff of a float kind (2^-52, 2^-23, 2^-10, 2^-7); 0 for
/// integers.
double getMachineEpsilon(ElementKind kind);

/// The loosest tolerance allowed for `kind`: 1e-4 for f32, 1e-2 for f16 and
/// bf16 (KernelBench), 1e-8 for f64; 0 (exact) for integers.
double getToleranceCap(ElementKind kind);

/// atol = rtol = min(cap(kind), 64 * eps(kind) * sqrt(max(K, 1))), where K
/// is the reduction length (product of the reduction loop extents; 1 for
/// element-wise ops). Short reductions accumulate little rounding error, so
/// they get a tighter bound; long ones hit the cap, never more.
Tolerance getTolerance(ElementKind kind, int64_t reductionLength);

/// The bound of an f32 output computed on tf32 tensor cores (inputs rounded
/// to 10 mantissa bits, unit roundoff 2^-11, f32 accumulation): an input's
/// rounding error is not shared with the f32 reference, so it adds up over
/// the reduction like a random walk. atol = 4 * 2^-11 * sqrt(K), rtol =
/// 1e-2 (each product is within 2^-10 of the exact one).
Tolerance getTf32Tolerance(int64_t reductionLength);

/// The element that failed worst (or, when all passed, came closest to the
/// bound).
struct WorstElement {
  unsigned argIndex = 0; // argument number in the signature
  int64_t flatIndex = 0;
  SmallVector<int64_t> index; // multi-dimensional, row-major
  double got = 0;
  double expected = 0;
  /// The high-precision reference at this element, when there is one.
  std::optional<double> expectedHighPrecision;
  /// Which reference `expected`, the errors and `allowed` refer to:
  /// "baseline" or "high_precision".
  std::string reference = "baseline";
  double absError = 0;
  double relError = 0; // absError / |expected|; inf when expected is 0
  double allowed = 0;  // atol_eff + rtol * |expected|
  /// absError / allowed; inf for non-finite mismatches.
  double ratio = 0;
  bool passed = true;
};

struct CompareOptions {
  Tolerance tolerance;
  /// Multiplies atol; the evaluator sets it to max(1, rms(reference)) for
  /// the Large distribution, where an absolute bound in unit-scale units is
  /// meaningless, and to 1 otherwise.
  double atolScale = 1;
  /// A lower bound for the absolute bound (after scaling). The evaluator
  /// sets it to twice the baseline's own worst error against the
  /// high-precision reference: the bound never asks more of a candidate
  /// than the reference implementation achieves.
  double atolFloor = 0;
  /// Per-element additions to the absolute bound (the output's shape), or
  /// null. The evaluator sets it, for an output that failed, to twice how
  /// far the high-precision result of each element moves when the inputs
  /// move by the rounding error of a correct implementation: elements
  /// whose exact value is ill-conditioned (a sum that cancels, fed to a
  /// steep function) get room for it; the others keep their bound.
  const HostBuffer *conditioning = nullptr;
};

/// Sets each element of `room` to the larger of twice |rounded - exact| and
/// `rmsUnits` times the root mean square of rounded - exact over the
/// element's row (its last dimension); non-finite moves give no room.
void setRoundingRoom(HostBuffer &room, const HostBuffer &rounded,
                     const HostBuffer &exact, double rmsUnits);
/// Raises each element of `room` to at least that of `other`.
void raiseToAtLeast(HostBuffer &room, const HostBuffer &other);

/// Raises each element of `conditioning` to twice |moved - reference| (the
/// move of a high-precision result under perturbed inputs), ignoring moves
/// that are not finite (an overflow says nothing about the element).
void raiseToTwiceTheMove(HostBuffer &conditioning, const HostBuffer &moved,
                         const HostBuffer &reference);

struct CompareResult {
  bool passed = true;
  int64_t numElements = 0;
  int64_t numMismatches = 0;
  /// Elements where the reference itself is NaN or infinite.
  int64_t numReferenceNonFinite = 0;
  std::optional<WorstElement> worst;
};

/// Compares one output. Integers must match exactly. For floats, an element
/// passes when `|got - exp| <= atol * atolScale + rtol * |exp|`; a NaN or
/// infinite `got` where `exp` is finite fails; where `exp` is NaN, `got`
/// must be NaN, and where it is infinite, `got` must be the same infinity.
/// With `highPrecision` (same shape, any float kind), an element also passes
/// when it meets the same rule against that reference instead.
CompareResult compareOutput(unsigned argIndex, const HostBuffer &got,
                            const HostBuffer &expected,
                            const HostBuffer *highPrecision,
                            const CompareOptions &options);

/// The largest |a[i] - b[i]| over the elements where both are finite (0 if
/// none); the buffers have the same number of elements.
double getMaxAbsDifference(const HostBuffer &a, const HostBuffer &b);

/// Root mean square of the finite elements of `buffer` (0 if none).
double getRootMeanSquare(const HostBuffer &buffer);

/// Row-major multi-dimensional index of `flat` in `shape`.
SmallVector<int64_t> delinearize(int64_t flat, ArrayRef<int64_t> shape);

/// One line: "output #2 [3, 4] (flat 31): got 1.5, expected 1.25, abs error
/// 0.25, rel error 0.2, allowed 0.000126".
std::string describeWorstElement(const WorstElement &worst);

} // namespace mlir::stark

#endif // STARK_EVAL_COMPARE_H
