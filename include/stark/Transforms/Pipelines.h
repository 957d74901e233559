//===- Pipelines.h - The stark pipeline -------------------------*- C++ -*-===//

#ifndef STARK_TRANSFORMS_PIPELINES_H
#define STARK_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir::stark {

struct StarkPipelineOptions : public PassPipelineOptions<StarkPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("cpu, cuda or auto"),
                             llvm::cl::init("auto")};
  Option<std::string> agent{*this, "agent",
                            llvm::cl::desc("Agent team (expert)"),
                            llvm::cl::init("expert")};
  Option<unsigned> budget{*this, "budget",
                          llvm::cl::desc("Candidates per problem"),
                          llvm::cl::init(12)};
  Option<double> seconds{*this, "seconds",
                         llvm::cl::desc("Seconds per problem"),
                         llvm::cl::init(120)};
  Option<uint64_t> seed{*this, "seed", llvm::cl::desc("Search seed"),
                        llvm::cl::init(0)};
  Option<std::string> report{*this, "report",
                             llvm::cl::desc("JSON report of every search"),
                             llvm::cl::init("")};
  Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("Hardware profile (default: from the target)"),
      llvm::cl::init("")};
  Option<unsigned> topK{*this, "top-k", llvm::cl::desc("Hot ops to optimise"),
                        llvm::cl::init(3)};
  Option<bool> fuse{*this, "fuse",
                    llvm::cl::desc("Outline hot ops with their element-wise "
                                   "and reduction chains as one problem"),
                    llvm::cl::init(true)};
  Option<double> timeout{*this, "timeout",
                         llvm::cl::desc("Seconds per candidate evaluation"),
                         llvm::cl::init(60)};
  Option<unsigned> trials{*this, "trials",
                          llvm::cl::desc("Correctness trials per candidate"),
                          llvm::cl::init(5)};
  Option<unsigned> timingTrials{
      *this, "timing-trials",
      llvm::cl::desc("Timed runs of baseline and candidate at least"),
      llvm::cl::init(10)};
  Option<bool> progress{*this, "progress", llvm::cl::desc("Progress on stderr"),
                        llvm::cl::init(true)};
};

/// stark-hot-ops -> stark-outline -> stark-search -> stark-substitute.
void buildStarkPipeline(OpPassManager &pm, const StarkPipelineOptions &options);

/// Registers `stark-pipeline`.
void registerStarkPipelines();

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_PIPELINES_H
