//===- Report.h - The JSON report of stark-search ---------------*- C++ -*-===//
//
// The report (`stark-search report=FILE`) records every problem's search:
// its identity, why it was skipped or the baseline and every node of the
// tree, and the winner. bench/ and python/stark read it.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_SEARCH_REPORT_H
#define STARK_SEARCH_REPORT_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Search/ProblemSearch.h"

#include "llvm/Support/JSON.h"

namespace mlir::stark {

/// Strategy parameters (a node's, a recorded winner's) as a JSON object.
llvm::json::Object
paramsToJSON(const std::map<std::string, std::string> &params);

/// One node of a search tree.
llvm::json::Object nodeToJSON(const SearchNode &node);

/// The entry of the problem `symbol`: what it is and what its search gave.
llvm::json::Object problemToJSON(StringRef symbol, ProblemAttr info,
                                 const ProblemSearchResult &result);

/// Keeps each fused chain of `program` outlined with compare-unfused, or its
/// ops alone where they were measured `minSpeedup` times faster
/// (chooseFusedOrUnfused), and says which in a remark on the chain's ops and
/// in the `unfused` member of the chain's entry of `reports`.
void reportFusedOrUnfused(ModuleOp program, double minSpeedup,
                          llvm::json::Array &reports);

/// Every linalg op of `program`'s functions that is in no problem (no
/// `stark.problem`), so left to the upstream lowering, with the reason
/// stark-hot-ops gives for it under `profile`: computed from constants
/// alone, a cost it cannot compute, or a rank outside top-k / min-share.
/// Each entry has `op`, `loc` and `why`.
llvm::json::Array describeOpsLeftUpstream(ModuleOp program,
                                          const HardwareProfile &profile);

/// What the whole run was asked to do.
struct SearchReportHeader {
  std::string target, agent, profile;
  int64_t budget = 0;
  double seconds = 0;
  int64_t seed = 0;
  bool allowTf32 = false;
  /// With a model: provider, model, the run's tokens and cost.
  std::optional<llvm::json::Value> llm;
  /// The whole run's budget (0: none) and the model's summary (empty:
  /// none written).
  double totalSeconds = 0;
  llvm::json::Object summary;
  /// The model's plan: the order, the evaluation estimate, the time the
  /// coverage took (empty: none written).
  llvm::json::Object plan;
  /// The evaluators of a parallel run (executors, devices, lost ones);
  /// absent when candidates were judged one at a time.
  std::optional<llvm::json::Object> evaluation;
  /// The weights the program had no data for and got synthesised ones
  /// (ElidedWeights.h, the module's stark.synthesized_weights); the
  /// problems' times are then those of made-up weights.
  std::vector<std::string> synthesizedWeights;
  /// The program's ops in no problem and why (describeOpsLeftUpstream).
  llvm::json::Array leftUpstream;
};

/// Writes the report of all problems to `path`; fails, saying why in `error`,
/// when the file cannot be written.
LogicalResult writeSearchReport(StringRef path,
                                const SearchReportHeader &header,
                                llvm::json::Array problems, std::string &error);

} // namespace mlir::stark

#endif // STARK_SEARCH_REPORT_H
