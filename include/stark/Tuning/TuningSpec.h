//===- TuningSpec.h - Tuning records as a transform-dialect spec -*- C++
//-*-===//
//
// A tuning spec is a plain .mlir file a compiler can ship: a
// `transform.with_named_sequence` module whose `@__transform_main` runs one
// `transform.foreach_match` over the program, with a matcher per recorded
// problem (`transform.stark.match_signature`) and an action that puts the
// recorded winner in place (`transform.stark.apply_winner`). Applying it
// needs neither a GPU nor a search.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TUNING_TUNINGSPEC_H
#define STARK_TUNING_TUNINGSPEC_H

#include "stark/Tuning/TuningDatabase.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::stark {

/// The attribute that marks a module as a tuning spec: {device, records,
/// stark_version, version}.
inline constexpr StringLiteral kTuningSpecAttrName = "stark.tuning_spec";

/// The records a spec for `device` holds: the last record of each
/// signature on that device (tf32 ones only with `allowTf32`). An empty
/// `device` is the database's only device; fails, saying why, when there
/// are several or none.
FailureOr<std::vector<const TuningRecord *>>
selectSpecRecords(const TuningDatabase &database, std::string &device,
                  bool allowTf32, std::string &error);

/// Builds the tuning spec of `records`, recorded on `device`, in `context`
/// (which must know the transform dialect, its stark extension and every
/// dialect the winners use). Fails, saying why, when a winner does not
/// parse.
FailureOr<OwningOpRef<ModuleOp>>
buildTuningSpec(ArrayRef<const TuningRecord *> records, StringRef device,
                MLIRContext *context, std::string &error);

/// Applies the tuning spec `spec` to `payload`: every op whose problem has
/// a recorded signature is replaced by the recorded winner. Fails, saying
/// why, when `spec` is not a tuning spec or an action fails.
LogicalResult applyTuningSpec(ModuleOp payload, ModuleOp spec,
                              std::string &error);

} // namespace mlir::stark

#endif // STARK_TUNING_TUNINGSPEC_H
