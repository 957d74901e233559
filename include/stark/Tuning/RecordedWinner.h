//===- RecordedWinner.h - Tuning records as winners of problems -*- C++ -*-===//
//
// The bridge between the tuning database and the IR: a record becomes the
// winner of a problem module exactly as a search leaves it (`module
// @winner` plus #stark.winner), so stark-substitute and the tuning spec put
// it into the program the same way; a search's winner becomes a record.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TUNING_RECORDEDWINNER_H
#define STARK_TUNING_RECORDEDWINNER_H

#include "stark/Dialect/StarkAttrs.h"
#include "stark/Search/Search.h"
#include "stark/Tuning/TuningDatabase.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::stark {

/// Parses `text` into a module of `context` (that verifies, with
/// `verifyModule`); otherwise null, with the diagnostics, "; "-separated,
/// in `messages` (they point into `text`, not into any program).
OwningOpRef<ModuleOp> parseModuleText(StringRef text, MLIRContext *context,
                                      bool verifyModule, std::string &messages);

/// Parses the winner module of `record` in `context`; fails, with the
/// parser's message in `error`, when it does not parse or verify.
FailureOr<OwningOpRef<ModuleOp>> parseRecordedWinner(const TuningRecord &record,
                                                     MLIRContext *context,
                                                     std::string &error);

/// The #stark.winner attribute of `record`.
WinnerAttr getRecordedWinnerAttr(const TuningRecord &record,
                                 MLIRContext *context);

/// Checks that `winner` can stand in for `problem`: `record` names the
/// problem's signature, entry and shape of outputs, and the winner defines
/// the entry with the problem entry's arguments. Fails, saying why.
LogicalResult checkRecordedWinner(ModuleOp problem, const TuningRecord &record,
                                  ModuleOp winner, std::string &error);

/// Makes `record` the winner of `problem`: checks it (checkRecordedWinner),
/// then adds `module @winner` and sets stark.winner, as stark-search does.
LogicalResult applyTuningRecord(ModuleOp problem, const TuningRecord &record,
                                std::string &error);

/// The proposal that judges `record`'s winner as the starting point of a
/// search on another device.
Proposal getSeedProposal(const TuningRecord &record);

} // namespace mlir::stark

#endif // STARK_TUNING_RECORDEDWINNER_H
