//===- Pipelines.cpp - The stark pipeline ---------------------------------===//

#include "stark/Transforms/Pipelines.h"
#include "stark/Target/Target.h"
#include "stark/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::stark;

namespace mlir::stark {
#define GEN_PIPELINE_OPTIONS_COPY
#include "stark/Transforms/PipelineOptions.h.inc"
} // namespace mlir::stark

/// The target `auto` stands for, decided the way stark-search decides it:
/// cuda when a CUDA device is usable here, else cpu.
static std::string resolveTarget(StringRef requested) {
  if (requested != "auto")
    return requested.str();
  // A context of its own: probing the device registers the cuda target's
  // dialects in the context it is given.
  MLIRContext context(MLIRContext::Threading::DISABLED);
  std::string error;
  std::unique_ptr<Target> cuda = createTarget("cuda", context, error);
  return cuda && cuda->getUnavailableReason().empty() ? "cuda" : "cpu";
}

void mlir::stark::buildStarkPipeline(OpPassManager &pm,
                                     const StarkPipelineOptions &options) {
  std::string target = resolveTarget(options.target);
  // stark-search's default profile for the resolved target, given to
  // stark-hot-ops too, so both see the same hardware.
  std::string profile = options.profile;
  if (profile.empty())
    profile = target == "cuda" ? "h200" : "host";

  // Work on constants alone is compile-time work: folded before ranking.
  StarkFoldConstantsPassOptions fold;
  copyPipelineOptions(options, fold);
  pm.addPass(createStarkFoldConstantsPass(fold));
  // Pools that read a captured input at affine indices (torch-mlir's
  // adaptive pooling) become plain reductions the cost model and the
  // families know.
  pm.addPass(createStarkExtractsToOperandsPass());
  // Head transposes meet the contractions they feed: attention reads them
  // as permuted operands and output.
  pm.addPass(createStarkUnitDimTransposesPass());

  StarkHotOpsPassOptions hot;
  copyPipelineOptions(options, hot);
  hot.profile = profile;
  pm.addPass(createStarkHotOpsPass(hot));

  StarkOutlinePassOptions outline;
  copyPipelineOptions(options, outline);
  // The cpu target has no kernel for a contraction with its epilogue: its
  // schedules tile one contraction, and a fused problem would get only the
  // upstream lowering of the whole group.
  outline.fuseEpilogues = options.fuseEpilogues && target == "cuda";
  outline.profile = profile;
  pm.addPass(createStarkOutlinePass(outline));

  StarkSearchPassOptions search;
  copyPipelineOptions(options, search);
  search.target = target;
  search.profile = profile;
  pm.addPass(createStarkSearchPass(search));

  StarkSubstitutePassOptions substitute;
  copyPipelineOptions(options, substitute);
  pm.addPass(createStarkSubstitutePass(substitute));
}

void mlir::stark::registerStarkPipelines() {
  PassPipelineRegistration<StarkPipelineOptions>(
      "stark-pipeline",
      "Find the hot ops, search verified faster lowerings for them and "
      "substitute the winners",
      buildStarkPipeline);
}
