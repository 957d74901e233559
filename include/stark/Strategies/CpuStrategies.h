//===- CpuStrategies.h - Transform-dialect schedules for the host -*- C++
//-*-===//
//
// The CPU candidate space: a kernel problem is rewritten by a transform
// script (cache tiling, register tiling, vectorisation, hoisting of the
// accumulator, lowering of vector contractions and reductions) into scf and
// vector code that the CPU target JIT-compiles. Schedules are parameterised;
// the parameters are what the search explores.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_CPUSTRATEGIES_H
#define STARK_STRATEGIES_CPUSTRATEGIES_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/Strategies/CandidateSpace.h"
#include "stark/Target/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::stark {

/// The host's strategy families.
inline constexpr const char *kCpuTileVectorize = "cpu-tile-vectorize";
inline constexpr const char *kCpuWindowVectorize = "cpu-window-vectorize";
inline constexpr const char *kCpuSoftmaxRows = "cpu-softmax-rows";
inline constexpr const char *kCpuTileLoops = "cpu-tile-loops";
inline constexpr const char *kCpuFusedRows = "cpu-fused-rows";

struct CpuSchedule {
  /// cpu-tile-vectorize: tile and vectorise an op with projected-permutation
  /// maps (contractions, reductions, elementwise, generic);
  /// cpu-window-vectorize: tile a convolution or pooling op to unit output
  /// rows and filter rows, decompose it to its 1-D form and vectorise that;
  /// cpu-softmax-rows: decompose linalg.softmax and fuse its four steps
  /// into one pass over each block of rows, vectorised;
  /// cpu-tile-loops: tile only, for ops nothing above vectorises;
  /// cpu-fused-rows: a fused chain with reductions, one loop over blocks of
  /// rows of its last op with every producer fused into it, vectorised.
  std::string family = kCpuTileVectorize;
  /// Tile size per loop of the `scf.forall` (then `scf.parallel`) level
  /// shared out to threads; empty or all 0 for none.
  SmallVector<int64_t> threadTiles;
  /// Threads that run the parallel level (1: one thread runs it in order).
  int64_t threads = 1;
  /// Outer (cache) tile size per loop of the op; 0 leaves the loop whole.
  SmallVector<int64_t> cacheTiles;
  /// Inner (register) tile size per loop; the inner tile is vectorised.
  /// 0 keeps the whole (cache-tiled) extent of that loop in the vector.
  /// For cpu-softmax-rows: the block of rows each parallel step fuses; for
  /// cpu-fused-rows: the tile of each loop of the chain's last op.
  SmallVector<int64_t> registerTiles;
  /// How vector.contract is lowered: "outerproduct" or "dot".
  std::string contractionLowering = "outerproduct";
  /// How vector.multi_reduction is lowered: "innerparallel" or
  /// "innerreduction".
  std::string reductionLowering = "innerparallel";

  /// cpu-window-vectorize on a 2-D window op: decompose the tiled op into
  /// its 1-D form before vectorising (1-D ops vectorise as they are).
  bool decomposeWindows = false;

  /// A fused problem whose chain fuses into one element-wise or reduction
  /// op on tensors (CpuFusedGroup.h): the schedule is that op's.
  bool fuseGroup = false;

  /// A threaded schedule of an op that owns the fill of its output (a fill
  /// + contraction problem): the fill goes into the thread loop, so each
  /// thread fills the output tiles it then computes, on the tensor form.
  /// Without it the fill runs before the op as plain loops, which a
  /// threaded candidate cannot have (the cpu target runs only the
  /// `scf.parallel` on several threads).
  bool fuseInitFill = false;

  /// Whether the schedule works on a tensor form of the problem (bufferised
  /// at the end of the script).
  bool onTensors() const;

  /// The parameters as the search records them.
  std::map<std::string, std::string> toParams() const;
  std::string describe() const;
};

/// Registers the dialects and transform extensions the schedules need.
void registerCpuStrategyDialects(DialectRegistry &registry);

/// Schedules worth trying for the single linalg op of `problem`, best
/// guesses first, grounded in the host profile (vector width, cache size).
/// Empty when no schedule applies (the reason in `whyNot`).
std::vector<CpuSchedule> enumerateCpuSchedules(ModuleOp problem,
                                               const HardwareProfile &host,
                                               std::string &whyNot);

/// The transform script of `schedule`: a module holding
/// `transform.named_sequence @__transform_main`, built in `ctx`. Fails
/// (with the reason in `error`) for lowering names the vector patterns do
/// not know and for a script that does not verify.
FailureOr<OwningOpRef<ModuleOp>>
buildCpuTransformScript(MLIRContext *ctx, const CpuSchedule &schedule,
                        std::string &error);

/// Applies `schedule` to a clone of `problem` and returns the candidate
/// module (same entry function and arguments, scf/vector body).
FailureOr<OwningOpRef<ModuleOp>> applyCpuSchedule(ModuleOp problem,
                                                  const CpuSchedule &schedule,
                                                  std::string &error);

} // namespace mlir::stark

#endif // STARK_STRATEGIES_CPUSTRATEGIES_H
