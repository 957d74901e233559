//===- CudaTemplates.h - Parameterised CUDA C++ kernels ---------*- C++ -*-===//
//
// The CUDA C++ candidate space of the expert policy. A kernel problem is read
// into a ProblemView (plain data: loop ranges, the linear address of every
// operand per loop, the payload as a scalar program, and what kind of
// computation it is), families of kernel generators ("templates") turn a view
// plus explicit parameters into CUDA C++ source and launch configurations,
// and the parameters worth trying are enumerated from the hardware profile.
// A plan becomes a candidate module: the problem's entry function with an
// empty body and a `stark.cuda` attribute (docs/cuda-target.md) that the cuda
// target compiles with NVRTC. docs/cuda-templates.md describes each family.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_CUDATEMPLATES_H
#define STARK_STRATEGIES_CUDATEMPLATES_H

#include "stark/Analysis/CostModel.h"
#include "stark/Analysis/ElementKind.h"
#include "stark/Analysis/HardwareProfile.h"

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
// Scalars and payloads
//===----------------------------------------------------------------------===//

/// One value of a payload: a block argument, a loop index, a constant or an
/// arith / math operation on earlier nodes.
struct ScalarNode {
  /// "arg", "index", "const", or the MLIR op name ("arith.addf").
  std::string op;
  ElementKind kind = ElementKind::F32;
  SmallVector<int> operands; // indices of earlier nodes
  /// Argument number for "arg", loop dimension for "index".
  int64_t position = 0;
  /// Value of "const" (floats exactly as the attribute holds them).
  double floatValue = 0;
  int64_t intValue = 0;
  /// cmpf / cmpi predicate ("olt", "sge", ...).
  std::string predicate;
};

/// The payload of a linalg op as a DAG of scalar nodes in program order.
/// Arguments are the op's operands (inputs, then outputs) in order.
struct ScalarProgram {
  std::vector<ScalarNode> nodes;
  SmallVector<ElementKind> argKinds;
  SmallVector<int> yields; // one node per output
  /// True when some node reads argument `arg`.
  bool usesArg(unsigned arg) const;
  /// Nodes that `yields` (or `roots`, when given) depend on.
  SmallVector<bool> reachable(ArrayRef<int> roots = {}) const;
};

/// Reads the payload of a linalg op. Scalar constant operands (the value of
/// a linalg.fill) and constants captured from above become "const" nodes.
/// Fails, naming the op, for ops without a CUDA translation.
FailureOr<ScalarProgram> extractScalarProgram(Operation *linalgOp,
                                              std::string &whyNot);

//===----------------------------------------------------------------------===//
// Problem views
//===----------------------------------------------------------------------===//

/// Address of an operand element as a linear function of the loop indices:
/// offset + sum(coefficients[d] * i_d), in elements of a dense row-major
/// buffer. Every map of the named linalg ops is of this form.
struct LinearAccess {
  int64_t offset = 0;
  SmallVector<int64_t> coefficients; // one per loop
  bool dependsOn(unsigned loop) const { return coefficients[loop] != 0; }
};

struct OperandView {
  /// Position among the entry's arguments; -1 for a scalar constant.
  int64_t argNumber = -1;
  ElementKind kind = ElementKind::F32;
  SmallVector<int64_t> shape;
  bool isOutput = false;
  LinearAccess access;
};

/// A contraction out[b, m, n] += a[b, m, k] * b[b, k, n] read off the maps:
/// batch loops index a, b and the output, m loops only a and the output, n
/// loops only b and the output, k loops are the reductions. Each group may
/// hold several loops (a convolution's m is batch x output image, its k is
/// filter window x input channels); they are listed outermost first, so the
/// group's linear index decodes into them in mixed radix.
struct ContractionView {
  SmallVector<unsigned> batchLoops, mLoops, nLoops, kLoops;
  int64_t batch = 1, m = 1, n = 1, k = 1;
  /// A's unit-stride loop is an m loop (A stored k-major); B's unit-stride
  /// loop is a k loop (B stored n-major). matmul has neither, matmul with
  /// transposed maps and batch_matmul_transpose_b have the respective one.
  bool transposeA = false, transposeB = false;
  ElementKind aKind = ElementKind::F32, bKind = ElementKind::F32,
              cKind = ElementKind::F32;
};

/// A reduction out[p] = combine(out[p], combine over r of pre(inputs[p, r])).
struct ReductionView {
  SmallVector<unsigned> parallelLoops; // outermost first, in output order
  SmallVector<unsigned> reducedLoops;  // outermost first, in input order
  int64_t rows = 1;                    // product of the parallel ranges
  int64_t length = 1;                  // product of the reduced ranges
  /// The combiner: "add", "mul", "max", "min", "maxnum", "minnum", "and",
  /// "or", "xor", with the kind it combines in.
  std::string combiner;
  ElementKind accumulatorKind = ElementKind::F32;
  /// Node of the payload that produces the combined value.
  int preNode = -1;
  /// The reduced loops of the largest input are its innermost dimensions,
  /// dense: each row is one contiguous run of `length` elements.
  bool innerContiguous = false;
};

/// linalg.softmax: out = exp(x - max) / sum(exp(x - max)) along `dim`.
struct SoftmaxView {
  int64_t dim = 0;
  int64_t rows = 1, length = 1;
  /// Elements between neighbours along `dim` (1 when it is the innermost).
  int64_t inner = 1;
  ElementKind inKind = ElementKind::F32, outKind = ElementKind::F32;
};

/// What linalg::inferConvolutionDims says about a convolution or pooling op.
struct ConvolutionView {
  SmallVector<unsigned> batch, outputImage, outputChannel, filterLoop,
      inputChannel, depth;
  SmallVector<int64_t> strides, dilations;
  bool depthwise = false; // channel loops shared by input, filter, output
};

/// A fused layer norm or RMS norm over the trailing dimensions (see
/// docs/cuda-templates.md, "layernorm and rmsnorm"), read off the ops of the
/// problem exactly: which argument is x, gamma and beta, eps, and how the
/// means are taken.
///   layernorm: y = (x - mean(x)) * rsqrt(mean((x - mean(x))^2) + eps)
///                  [* gamma] [+ beta]
///   rmsnorm:   y = x * rsqrt(mean(x * x) + eps) [* gamma]
/// (or a division by sqrt(... + eps) instead of the rsqrt product).
struct NormView {
  bool rms = false;
  /// Rows (product of the leading dimensions) of `length` elements (product
  /// of the normalised trailing dimensions), contiguous.
  int64_t rows = 1, length = 1;
  double eps = 0;
  /// Entry arguments; -1 when absent.
  int64_t inputArg = 0, gammaArg = -1, betaArg = -1, outputArg = 1;
  ElementKind inKind = ElementKind::F32, outKind = ElementKind::F32,
              gammaKind = ElementKind::F32, betaKind = ElementKind::F32;
  /// How each mean is taken: a sum divided by `length`, or (when
  /// `...ByFactor`) multiplied by the constant the problem holds.
  bool meanByFactor = false, varByFactor = false;
  double meanFactor = 0, varFactor = 0;
  /// y divides by sqrt(var + eps) instead of multiplying by its rsqrt.
  bool divideBySqrt = false;
};

struct ProblemView {
  std::string entry = "kernel";
  std::string opName;
  OpClass opClass = OpClass::Generic;
  bool isSoftmax = false;
  /// The entry's arguments: inputs, then outputs.
  SmallVector<ElementKind> argKinds;
  SmallVector<SmallVector<int64_t>> argShapes;
  unsigned numOutputArgs = 0;
  /// Linalg ops: loops, operands (op order), payload.
  SmallVector<int64_t> loopRanges;
  SmallVector<bool> reductionLoops;
  SmallVector<OperandView> inputs, outputs;
  std::optional<ScalarProgram> body;
  std::string whyNoBody;
  std::optional<ContractionView> contraction;
  std::optional<ReductionView> reduction;
  std::optional<SoftmaxView> softmax;
  std::optional<ConvolutionView> convolution;
  /// Set for a fused problem that is a layer norm or RMS norm.
  std::optional<NormView> norm;

  int64_t numLoops() const { return int64_t(loopRanges.size()); }
  int64_t numParallelPoints() const;
};

/// Reads the entry function of a problem module: one linalg op (or
/// linalg.softmax) on the entry's memref arguments, plus constants it
/// captures, or a fused problem (several ops) that is a layer norm or an
/// RMS norm. Fails with the reason for anything else.
FailureOr<ProblemView> analyzeCudaProblem(ModuleOp problem,
                                          std::string &whyNot);

//===----------------------------------------------------------------------===//
// Plans and families
//===----------------------------------------------------------------------===//

/// Parameters by name (lower case: "bm", "double_buffer"), as the search
/// varies them.
using TemplateParams = std::map<std::string, int64_t>;

struct CudaKernelPlan {
  struct Launch {
    std::string kernel;
    std::array<int64_t, 3> grid = {1, 1, 1};
    std::array<int64_t, 3> block = {1, 1, 1};
    /// Dynamic shared memory.
    int64_t sharedBytes = 0;
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
  bool cache = false;
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
// registered in StrategyRegistry.cpp; these look them up by name.

/// All template family names, in registration order: gemm, gemm_tc,
/// elementwise, reduce_row, reduce_col, softmax, layernorm, rmsnorm, direct.
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
