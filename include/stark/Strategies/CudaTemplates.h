//===- CudaTemplates.h - Parameterised CUDA C++ kernels ---------*- C++ -*-===//
//
// The CUDA C++ candidate space of the expert policy. A kernel problem is read
// into a ProblemView (stark/Analysis/ProblemView.h), families of kernel
// generators ("templates") turn a view plus explicit parameters into CUDA C++
// source and launch configurations, and the parameters worth trying are
// enumerated from the hardware profile. A plan becomes a candidate module: the
// problem's entry function with an empty body and a `stark.cuda` attribute
// (docs/cuda-target.md) that the cuda target compiles with NVRTC.
// docs/cuda-templates.md describes each family.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_CUDATEMPLATES_H
#define STARK_STRATEGIES_CUDATEMPLATES_H

#include "stark/Analysis/CostModel.h"
#include "stark/Analysis/ElementKind.h"
#include "stark/Analysis/HardwareProfile.h"
#include "stark/Analysis/ProblemView.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stark {

//===----------------------------------------------------------------------===//
// Plans and families
//===----------------------------------------------------------------------===//

/// Parameters by name (lower case: "bm", "double_buffer"), as the search
/// varies them.
using TemplateParams = std::map<std::string, int64_t>;

struct CudaKernelPlan {
  /// A tensor map the launch passes after the arguments' pointers
  /// (#stark.tensor_map): argument `arg` seen as the row-major `shape`,
  /// copied in boxes of `box`.
  struct TensorMap {
    int64_t arg = 0;
    std::vector<int64_t> shape, box;
  };
  struct Launch {
    std::string kernel;
    std::array<int64_t, 3> grid = {1, 1, 1};
    std::array<int64_t, 3> block = {1, 1, 1};
    /// Dynamic shared memory.
    int64_t sharedBytes = 0;
    std::vector<TensorMap> tensorMaps;
  };
  std::string source;
  std::vector<Launch> launches;
  std::string family;
  std::map<std::string, std::string> params;
  /// Largest shared memory (static + dynamic) any launch uses per block.
  int64_t sharedBytesPerBlock = 0;
  /// Largest block of any launch.
  int64_t threadsPerBlock = 0;
  /// Extra NVRTC options the source needs.
  std::vector<std::string> options;
};

/// SIMT GEMM (any float types, f32 accumulation): BM x BN block tile staged
/// through shared memory BK deep, TM x TN register tile per thread.
struct GemmParams {
  int64_t bm = 128, bn = 128, bk = 8, tm = 8, tn = 8;
  bool doubleBuffer = true;
  /// Tile rows per group in the block order (L2 reuse).
  int64_t groupM = 8;
  /// Blocks per SM the register allocation must allow (__launch_bounds__):
  /// 2 caps a 256-thread block at 128 registers, which may spill.
  int64_t minBlocks = 1;
};

/// Tensor-core GEMM through WMMA: f16 / bf16 inputs (f32 with allow_tf32),
/// f32 accumulation; BM x BN block tile of WM x WN warp tiles, cp.async
/// pipeline of `stages` BK-deep buffers.
struct GemmTcParams {
  int64_t bm = 128, bn = 128, bk = 32, wm = 64, wn = 64, stages = 3;
  int64_t groupM = 8;
  bool allowTf32 = false;
};

/// Element-wise: grid-stride loop, `vec` elements per access, `perThread`
/// accesses per thread and trip.
struct ElementwiseParams {
  int64_t block = 256, vec = 4, perThread = 1;
};

/// Reduction, one row per `threads` lanes, `rows` rows per block, `vec`
/// elements per load; `split` > 1 cuts each row into that many parts whose
/// partial results a second launch combines.
struct ReduceRowParams {
  int64_t threads = 32, rows = 4, vec = 4, split = 1;
};

/// Reduction, one output per thread of `blockX`, the reduced range split
/// over `splitY` threads that combine through shared memory.
struct ReduceColParams {
  int64_t blockX = 128, splitY = 1;
};

/// Online softmax, `threads` lanes per row, `rows` rows per block; with
/// `cache` each lane keeps its part of the row in registers, so the input is
/// read once instead of twice (rows of at most 32 elements per lane).
struct SoftmaxParams {
  int64_t threads = 32, rows = 4, vec = 4;
  /// Where each lane keeps its part of the row between the two passes: 0
  /// nowhere (read twice), 1 registers (at most 32 elements per lane), 2 the
  /// block's shared memory (the rows of a block must fit it).
  int64_t cache = 0;
};

/// Layer norm / RMS norm, one row per `threads` lanes, `rows` rows per
/// block, `vec` elements per access. With `cache` each lane keeps its part
/// of the row in registers: x is read once and the variance is a second
/// pass over the registers (at most 32 elements per lane). Without it the
/// statistics come from one streaming pass (Welford for the layer norm) and
/// x is read again to normalise.
struct NormParams {
  int64_t threads = 256, rows = 1, vec = 4;
  bool cache = true;
};

/// One thread per output point, the reductions as sequential loops.
struct DirectParams {
  int64_t block = 256;
};

FailureOr<CudaKernelPlan> generateGemmKernel(const ProblemView &view,
                                             const GemmParams &params,
                                             std::string &whyNot);
FailureOr<CudaKernelPlan> generateGemmTcKernel(const ProblemView &view,
                                               const GemmTcParams &params,
                                               std::string &whyNot);
FailureOr<CudaKernelPlan>
generateElementwiseKernel(const ProblemView &view,
                          const ElementwiseParams &params, std::string &whyNot);
FailureOr<CudaKernelPlan> generateReduceRowKernel(const ProblemView &view,
                                                  const ReduceRowParams &params,
                                                  std::string &whyNot);
FailureOr<CudaKernelPlan> generateReduceColKernel(const ProblemView &view,
                                                  const ReduceColParams &params,
                                                  std::string &whyNot);
FailureOr<CudaKernelPlan> generateSoftmaxKernel(const ProblemView &view,
                                                const SoftmaxParams &params,
                                                std::string &whyNot);
FailureOr<CudaKernelPlan> generateNormKernel(const ProblemView &view,
                                             const NormParams &params,
                                             std::string &whyNot);
FailureOr<CudaKernelPlan> generateDirectKernel(const ProblemView &view,
                                               const DirectParams &params,
                                               std::string &whyNot);

// The template families are StrategyFamily classes (lib/Strategies/Cuda/),
// registered by Families.def; these look them up by name.

/// All template family names, in registration order: gemm_f32,
/// gemm_3xtf32, gemm, gemm_tc, gemm_wgmma, elementwise, reduce_row,
/// reduce_col, softmax, layernorm, rmsnorm, fused_rows, scan, direct.
ArrayRef<StringRef> getCudaTemplateFamilies();

/// Whether `family` can generate a correct kernel for `view`.
LogicalResult checkFamilyApplies(StringRef family, const ProblemView &view,
                                 std::string &whyNot);

/// The families that apply to `view`, the most promising first.
SmallVector<std::string> getApplicableFamilies(const ProblemView &view,
                                               bool allowTf32 = false);

struct EnumerateOptions {
  /// f32 contractions may use tf32 tensor cores (the user allowed it).
  bool allowTf32 = false;
  /// Keep at most this many parameter sets (0: all), best guesses first.
  int64_t limit = 0;
};

/// The parameter sets of `family` worth trying on `view`, the best guess
/// first. Every set fits the profile: threads per block, shared memory per
/// block, registers (estimated), grid limits. Empty when the family does
/// not apply or the profile's warps are not 32 lanes wide.
std::vector<TemplateParams>
enumerateParams(StringRef family, const ProblemView &view,
                const HardwareProfile &profile,
                const EnumerateOptions &options = {});

/// Generates `family` with `params` (missing ones take their defaults,
/// unknown names are an error).
FailureOr<CudaKernelPlan> generateCudaKernel(StringRef family,
                                             const ProblemView &view,
                                             const TemplateParams &params,
                                             std::string &whyNot);

/// Parses "bm=128,BN=64,double_buffer=1" (names case-insensitive).
FailureOr<TemplateParams> parseTemplateParams(StringRef text,
                                              std::string &error);
std::string formatTemplateParams(const TemplateParams &params);

/// A copy of `problem` whose entry function has an empty body and the
/// `stark.cuda` attribute of `plan`.
FailureOr<OwningOpRef<ModuleOp>>
buildCudaCandidateModule(ModuleOp problem, const CudaKernelPlan &plan,
                         std::string &error);

} // namespace mlir::stark

#endif // STARK_STRATEGIES_CUDATEMPLATES_H
