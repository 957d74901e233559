//===- Pipelines.cpp - The stark pipeline ---------------------------------===//

#include "stark/Transforms/Pipelines.h"
#include "stark/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::stark;

void mlir::stark::buildStarkPipeline(OpPassManager &pm,
                                     const StarkPipelineOptions &options) {
  std::string profile = options.profile;
  if (profile.empty())
    profile = options.target == "cuda" ? "h200" : "host";

  StarkHotOpsPassOptions hot;
  hot.profile = profile;
  hot.topK = options.topK;
  pm.addPass(createStarkHotOpsPass(hot));

  StarkOutlinePassOptions outline;
  outline.fuse = options.fuse;
  pm.addPass(createStarkOutlinePass(outline));

  StarkSearchPassOptions search;
  search.target = options.target;
  search.agent = options.agent;
  search.budget = options.budget;
  search.seconds = options.seconds;
  search.seed = options.seed;
  search.report = options.report;
  search.profile = options.profile;
  search.timeout = options.timeout;
  search.progress = options.progress;
  search.trials = options.trials;
  search.timingTrials = options.timingTrials;
  pm.addPass(createStarkSearchPass(search));

  pm.addPass(createStarkSubstitutePass());
}

void mlir::stark::registerStarkPipelines() {
  PassPipelineRegistration<StarkPipelineOptions>(
      "stark-pipeline",
      "Find the hot ops, search verified faster lowerings for them and "
      "substitute the winners",
      buildStarkPipeline);
}
