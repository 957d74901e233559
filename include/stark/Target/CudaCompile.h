//===- CudaCompile.h - Candidates to PTX, no GPU needed ---------*- C++ -*-===//
//
// The compile half of the cuda target, usable on any host: the upstream MLIR
// lowering of a problem or a GPU-dialect candidate to host LLVM-dialect code
// plus PTX from LLVM's NVPTX backend, and NVRTC for CUDA C++ candidates.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_CUDACOMPILE_H
#define STARK_TARGET_CUDACOMPILE_H

#include "stark/Dialect/StarkAttrs.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>

namespace mlir {
class DialectRegistry;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace mlir::stark {

class CompileCache;

/// What code is generated for: the chip (`sm_90a`) and the PTX features the
/// NVPTX backend needs for it (`+ptx80`; empty means the backend's minimum).
struct CudaArch {
  std::string chip = "sm_90a";
  std::string features = "+ptx80";

  /// The arch-specific variant where one exists (9.0 -> sm_90a, which
  /// unlocks wgmma and setmaxnreg), else plain sm_XY.
  static CudaArch forComputeCapability(int major, int minor);
};

/// Dialects, conversion interfaces and LLVM IR translations that lowering and
/// JIT-compiling a candidate for CUDA need. createCudaTarget appends them to
/// its context; tools that parse candidates before creating the target can
/// register them up front.
void registerCudaTargetDialects(DialectRegistry &registry);

/// Initialises LLVM's NVPTX backend (once per process).
void initializeNvptxBackend();

/// Lowers `module` in place for CUDA. Plain linalg in the host functions (a
/// problem: the baseline) goes the upstream way: parallel loops, tiled and
/// mapped to blocks and threads, gpu.launch. Then, for problems and
/// GPU-dialect candidates alike: kernel outlining, NVVM, the NVVM target for
/// `arch` on every gpu.module (replacing any target it had), the host to the
/// LLVM dialect, and each gpu.module to a gpu.binary holding PTX. A whole
/// program's host buffers move to the device: allocations become gpu.alloc,
/// copies become kernels, and the globals it reads (its weights) are read
/// through kDeviceCopyOfGlobalSymbol.
LogicalResult lowerModuleForCuda(ModuleOp module, const CudaArch &arch,
                                 std::string &error);

/// The runtime function `ptr (ptr host, i64 bytes)` that lowered host code
/// calls for the address of a global: it returns a device copy of the
/// `bytes` at `host`, made once per compiled module.
inline constexpr llvm::StringLiteral kDeviceCopyOfGlobalSymbol =
    "starkDeviceCopyOfGlobal";

/// The PTX text of every gpu.binary in a lowered module, in order.
SmallVector<std::string> collectEmbeddedPtx(ModuleOp module);

/// The guards on a module lowered by lowerModuleForCuda, for a candidate:
/// its host code by the rules of LoweredGuards.h (with the mgpu* runtime
/// provided), its kernels by those of PtxGuards.h on their PTX.
LogicalResult checkLoweredCudaCandidate(ModuleOp module, std::string &error);

/// lowerModuleForCuda, then the PTX of all gpu.binary ops concatenated.
FailureOr<std::string> compileGpuModuleToPtx(ModuleOp module,
                                             const CudaArch &arch,
                                             std::string &error);

//===----------------------------------------------------------------------===//
// CUDA C++ candidates
//===----------------------------------------------------------------------===//

/// One kernel launch of a CUDA C++ candidate. The kernel receives the data
/// pointers of the entry's memref arguments, in order.
struct CudaLaunch {
  std::string kernel;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t sharedBytes = 0;
  /// Passed after the pointers: each map's device address.
  SmallVector<TensorMapAttr> tensorMaps;
};

/// The `family` of CUDA C++ that a language model wrote (the llm agents
/// give it to every CUDA C++ candidate they make). Its PTX is checked by
/// the rules of PtxGuards.h before it is loaded.
inline constexpr llvm::StringLiteral kModelWrittenCudaFamily = "llm";

/// The #stark.cuda attribute of a candidate's entry, as the CUDA target and
/// stark-substitute use it (extents padded to three).
struct CudaSourceCandidate {
  std::string source;
  /// The template family that wrote it; kModelWrittenCudaFamily for a
  /// model.
  std::string family;
  SmallVector<CudaLaunch> launches;
  /// Extra NVRTC options (`options = ["-use_fast_math"]`).
  SmallVector<std::string> options;
};

/// True when `func` carries a `stark.cuda` attribute (kCudaAttrName).
bool hasCudaSource(func::FuncOp func);

/// Reads the #stark.cuda attribute of `func`; fails when it has none or one
/// of another kind.
FailureOr<CudaSourceCandidate> parseCudaSource(func::FuncOp func,
                                               std::string &error);

/// What NVRTC produced.
struct NvrtcOutput {
  std::string ptx;
  /// SASS for the chip; empty when NVRTC was asked for a virtual arch.
  std::string cubin;
  std::string log;
  /// Name expression (as given) to the symbol in the module.
  llvm::StringMap<std::string> loweredNames;
};

/// True when NVRTC can be loaded; otherwise `reason` says why.
bool isNvrtcAvailable(std::string &reason);

/// Compiles CUDA C++ with NVRTC for `chip` (-std=c++17, the toolkit's include
/// directory). Each of `kernelNames` is registered as a name expression, so
/// that extern "C" kernels, C++ kernels and template instances alike resolve
/// to their symbol. On a compile error, `error` holds NVRTC's log. What
/// compiled is kept in `cache` (null: CompileCache::getDefault()) and read
/// back from there by the next compile of the same source, names, options
/// and chip with the same NVRTC.
FailureOr<NvrtcOutput>
compileCudaSourceWithNvrtc(StringRef source, ArrayRef<std::string> kernelNames,
                           StringRef chip, ArrayRef<std::string> extraOptions,
                           std::string &error, CompileCache *cache = nullptr);

/// compileCudaSourceWithNvrtc for `candidate`: its source, each launched
/// kernel's name once, its own options. What the cuda target and
/// stark-substitute compile, so that both meet the same cache entries.
FailureOr<NvrtcOutput>
compileCudaSourceCandidate(const CudaSourceCandidate &candidate, StringRef chip,
                           std::string &error, CompileCache *cache = nullptr);

/// Compiles the CUDA C++ of every function of `module` that has some
/// (hasCudaSource) for `chip`, keeping what compiles in `cache` (null:
/// CompileCache::getDefault()), so that the evaluation that compiles it
/// again finds it there. Returns how many compiled; a function that does
/// not compile is left for its evaluation to report.
unsigned precompileCudaSources(ModuleOp module, StringRef chip,
                               CompileCache *cache = nullptr);

/// The guards on what NVRTC made of a model-written candidate (family
/// kModelWrittenCudaFamily; others pass): fails with the rule and the PTX
/// line it breaks. The first `numInputs` parameters of every kernel are the
/// problem's inputs.
LogicalResult checkModelWrittenPtx(const CudaSourceCandidate &candidate,
                                   const NvrtcOutput &built, unsigned numInputs,
                                   std::string &error);

} // namespace mlir::stark

#endif // STARK_TARGET_CUDACOMPILE_H
