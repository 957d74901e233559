//===- SearchRecords.cpp - The tuning database as the search's records ----===//

#include "stark/Tuning/SearchRecords.h"
#include "stark/Eval/Timing.h"
#include "stark/Search/Report.h"
#include "stark/Tuning/RecordedWinner.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

namespace {

std::string joinParams(const std::map<std::string, std::string> &params) {
  return llvm::join(
      llvm::map_range(
          params, [](const auto &kv) { return kv.first + "=" + kv.second; }),
      " ");
}

class SearchRecords : public RecordedWinners {
public:
  SearchRecords(TuningDatabase database, SearchRecordsOptions options,
                const ProblemSearchOptions &search)
      : database(std::move(database)), options(std::move(options)),
        target(search.target), allowTf32(search.allowTf32) {
    settings =
        llvm::json::Object{{"agent", search.agent},
                           {"budget", int64_t(search.budget)},
                           {"seconds", search.seconds},
                           {"seed", int64_t(search.seed)},
                           {"profile", this->options.profile},
                           {"min_speedup", search.minSpeedup},
                           {"trials", int64_t(search.trials)},
                           {"timing_trials", int64_t(search.timingTrials)}};
  }

  const TuningRecord *find(ProblemAttr info) const {
    if (options.retune)
      return nullptr;
    return database.lookup(info.getSignature(), options.device, allowTf32);
  }

  std::vector<Proposal> getSeeds(ProblemAttr info) override {
    std::vector<Proposal> seeds;
    for (const TuningRecord *other : database.lookupOtherDevices(
             info.getSignature(), options.device, allowTf32))
      if (other->target == target)
        seeds.push_back(getSeedProposal(*other));
    return seeds;
  }

  FailureOr<std::optional<Applied>> apply(ModuleOp problem, ProblemAttr info,
                                          std::string &error) override {
    const TuningRecord *found = find(info);
    if (!found)
      return std::optional<Applied>();
    const TuningRecord &record = *found;
    std::string why;
    if (failed(applyTuningRecord(problem, record, why))) {
      error =
          llvm::formatv("tuning database '{0}': the record of {1} on {2} "
                        "cannot be applied: {3}",
                        options.path, info.getSignature(), record.device, why)
              .str();
      return failure();
    }
    Applied applied;
    applied.speedup = record.speedup;
    applied.report =
        llvm::json::Object{{"problem", problem.getSymNameAttr().getValue()},
                           {"op", info.getOp()},
                           {"shapes", info.getShapes()},
                           {"signature", info.getSignature()},
                           {"source", "tuning-db"},
                           {"candidates", 0},
                           {"baseline_seconds", record.baselineSeconds}};
    applied.report["tuning_db"] =
        llvm::json::Object{{"device", record.device},
                           {"strategy", record.strategy},
                           {"params", paramsToJSON(record.params)},
                           {"candidate", record.candidate},
                           {"seconds", record.winnerSeconds},
                           {"speedup", record.speedup},
                           {"stark_version", record.starkVersion},
                           {"recorded_at", record.recordedAt}};
    applied.remark =
        llvm::formatv("from tuning database: {0:f2}x faster on {1}: {2} {3} "
                      "(recorded {4} on {5}, {6} -> {7})",
                      record.speedup, record.target, record.strategy,
                      joinParams(record.params), record.recordedAt,
                      record.device, formatDuration(record.baselineSeconds),
                      formatDuration(record.winnerSeconds))
            .str();
    return std::optional<Applied>(std::move(applied));
  }

  LogicalResult record(ProblemAttr info, const ProblemSearchResult &result,
                       const SearchNode &win, std::string &error) override {
    const SearchResult &search = *result.search;
    TuningRecord r;
    r.signature = info.getSignature().str();
    r.device = options.device;
    r.target = target;
    r.op = info.getOp().str();
    r.shapes = info.getShapes().str();
    r.entry = info.getEntry().str();
    r.numOutputs = info.getNumOutputs();
    r.fusedOps = info.getFusedOps();
    r.strategy = win.strategy;
    r.params = win.params;
    r.candidate = win.id;
    r.module = search.payloads[win.id];
    r.baselineSeconds = result.baselineSeconds;
    r.winnerSeconds = win.seconds;
    r.speedup = win.speedup;
    r.allowTf32 = result.tf32Tolerance;
    r.search = settings;
    r.search["candidates"] = search.candidatesTried;
    r.search["stop_reason"] = search.stopReason;
    return appendTuningRecord(options.path, r, error);
  }

private:
  TuningDatabase database;
  SearchRecordsOptions options;
  std::string target;
  bool allowTf32;
  llvm::json::Object settings;
};

} // namespace

std::unique_ptr<RecordedWinners>
mlir::stark::createSearchRecords(TuningDatabase database,
                                 SearchRecordsOptions options,
                                 const ProblemSearchOptions &search) {
  return std::make_unique<SearchRecords>(std::move(database),
                                         std::move(options), search);
}
