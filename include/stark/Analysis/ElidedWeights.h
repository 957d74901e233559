//===- ElidedWeights.h - Weights whose data is not in the module -*- C++
//-*-===//
//
// Exporters often leave a model's weights out of the file: torch-mlir prints
// `dense_resource<__elided__>` for every large weight when asked to elide
// them, and a file cut short of its `{-# dialect_resources ... #-}` section
// names blobs it does not hold. Such a program ranks, outlines and searches
// (a weight is an input like any other), but it cannot run. This finds those
// weights, says so on the op that holds each, and on request replaces them
// with deterministic weights of the declared type, for timing and
// verification: the same rule gives the same weights to the program and to
// what stark-opt made of it.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_ELIDEDWEIGHTS_H
#define STARK_ANALYSIS_ELIDEDWEIGHTS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

#include <string>
#include <vector>

namespace mlir::stark {

/// On a program: the names of the weights that had no data and were
/// synthesised, so that reports can say so (verified by the stark dialect).
inline constexpr StringLiteral kSynthesizedWeightsAttrName =
    "stark.synthesized_weights";

/// The resource name an exporter writes for a weight it left out.
inline constexpr StringLiteral kElidedResourceName = "__elided__";

/// A `dense_resource` attribute without data, and the op whose attribute
/// holds it (an `ml_program.global`, an `arith.constant`, ...).
struct MissingWeight {
  Operation *holder = nullptr;
  DenseResourceElementsAttr attr;
  /// What the weight is known by, and what its synthesised data is keyed
  /// by: the resource's name; for an elided one, `@symbol` of the global
  /// that holds it, else `__elided__#N` (the N-th elided weight held by an
  /// op that is no symbol, in program order).
  std::string name;

  /// Whether the exporter elided it (rather than naming a blob the file
  /// does not hold).
  bool isElided() const;
};

/// Every weight without data held by an op under `root` (the root
/// included), in program order.
std::vector<MissingWeight> findMissingWeights(Operation *root);

/// Emits an error on `weight`'s holder naming the resource and saying how
/// to opt in to synthesised weights (`optIn`: the option of the tool or
/// pass at hand); `others`: how many more weights lack data, when one error
/// speaks for all.
InFlightDiagnostic emitMissingWeightError(const MissingWeight &weight,
                                          StringRef optIn, int64_t others = 0);

/// The same as a warning, once for all of `weights` (not empty): on the
/// first one's holder, with how many others there are.
InFlightDiagnostic emitMissingWeightsWarning(ArrayRef<MissingWeight> weights,
                                             StringRef optIn);

/// Replaces every weight without data under `module` with deterministic
/// data of its declared type: a 64-bit LCG seeded by the weight's name.
/// Floats of rank >= 2 are uniform in +-1/sqrt(fan_in) (fan_in: the
/// elements per leading index, as PyTorch initialises linear and conv
/// weights), floats of rank <= 1 (biases, norm scales, running variances)
/// uniform in [0.5, 1.5], integers and indices zero (an index table stays
/// in bounds). Each weight becomes a blob of its own; the names are added
/// to the module's `stark.synthesized_weights`. Fails, with an error on the
/// holder, on an element type it cannot fill.
FailureOr<std::vector<MissingWeight>> synthesizeMissingWeights(ModuleOp module);

/// The names in `module`'s `stark.synthesized_weights` (empty without it).
std::vector<std::string> getSynthesizedWeights(ModuleOp module);

} // namespace mlir::stark

#endif // STARK_ANALYSIS_ELIDEDWEIGHTS_H
