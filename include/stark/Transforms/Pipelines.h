//===- Pipelines.h - The stark pipeline -------------------------*- C++ -*-===//

#ifndef STARK_TRANSFORMS_PIPELINES_H
#define STARK_TRANSFORMS_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir::stark {

/// Every option of every pass of the pipeline, generated from Passes.td
/// (cmake/gen-pipeline-options.py, which also holds the few pipeline
/// defaults that differ from a pass's own, such as top-k). An option that
/// several passes share, such as `profile`, feeds all of them.
struct StarkPipelineOptions : public PassPipelineOptions<StarkPipelineOptions> {
#define GEN_PIPELINE_OPTIONS_DECL
#include "stark/Transforms/PipelineOptions.h.inc"
};

/// stark-fold-constants -> stark-hot-ops -> stark-outline -> stark-search
/// -> stark-substitute.
/// `target=auto` is resolved here, once (cuda when a CUDA device is usable,
/// else cpu), and an empty `profile` becomes that target's profile (h200
/// for cuda, host for cpu), so hot ops are ranked for the hardware the
/// search runs on.
void buildStarkPipeline(OpPassManager &pm, const StarkPipelineOptions &options);

/// Registers `stark-pipeline`.
void registerStarkPipelines();

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_PIPELINES_H
