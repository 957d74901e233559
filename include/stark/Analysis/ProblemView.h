//===- ProblemView.h - What a kernel problem computes, as data --*- C++ -*-===//
//
// The one view of a problem that the cost model and every generator share:
// the entry's arguments, the loop ranges, the linear address of every
// operand per loop, the payload as a scalar program, and the structure read
// off the maps and the payload (contraction, reduction, convolution,
// softmax, layer norm / RMS norm). Plain data, so that generators, tests and
// tools can inspect it without walking IR.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_PROBLEMVIEW_H
#define STARK_ANALYSIS_PROBLEMVIEW_H

#include "stark/Analysis/CostModel.h"
#include "stark/Analysis/ElementKind.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
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

/// Whether `op` is a linalg op that copies its one input to its one output
/// through permutation maps (linalg.transpose, or a generic that yields its
/// input), on tensors or on buffers.
bool isPermutingCopy(Operation *op);

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
  /// The constant the output starts from when the problem fills it first
  /// (a fill + contraction problem: out = init + sum, the output is written,
  /// never read); nullopt when the contraction accumulates into what the
  /// output holds. The same as ProblemView::initValue.
  std::optional<double> initValue;
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

struct ProblemView;

/// One reduction of a fused chain: combine over the column loops of the
/// value of `preNode`, started from the combiner's identity; the program's
/// "reduce" node of the same number holds the result combined with the
/// initial value of the reduction's buffer.
struct FusedReduction {
  int preNode = -1;
  /// As ReductionView::combiner, or "argmax" / "argmin": the first position
  /// of the greatest (least) value over the row, ignoring NaN. Such a
  /// reduction's "reduce" node is the value found and its "reduce_index"
  /// node the value of `indexNode` where it was found; neither is combined
  /// with an initial value (the program does that with its own nodes).
  std::string combiner;
  ElementKind accumulatorKind = ElementKind::F32;
  /// For argmax / argmin: the position along the row (a node per point).
  int indexNode = -1;
  bool isArgReduction() const {
    return combiner == "argmax" || combiner == "argmin";
  }
};

/// A fused problem (a chain of linalg ops on temporaries, see
/// stark/Problem/FusionGroup.h) read as one computation over one loop
/// space: the loops of every op are identified through the buffers they
/// share, each temporary is replaced by the expression that produced it,
/// and each reduction by a node standing for its result. Reductions all
/// reduce the same loops (the column loops); the other loops are the rows.
/// Nodes that depend on no column loop are row values (computed once per
/// row); the others are evaluated per point of a row.
struct FusedView {
  /// "arg" nodes read ProblemView::inputs[position]; "reduce" nodes are the
  /// result of reductions[position]; "index" nodes are the fused loops.
  ScalarProgram program;
  SmallVector<FusedReduction> reductions;
  /// The node each of ProblemView::outputs takes.
  SmallVector<int> outputNodes;
  /// Loops of the fused space that no reduction reduces, and those it does.
  SmallVector<unsigned> rowLoops, columnLoops;
  int64_t rows = 1, length = 1;
  /// Number of linalg ops fused.
  int64_t numOps = 0;
  /// True when `node` depends on a column loop.
  SmallVector<bool> perPoint(const ProblemView &view) const;
};

/// A contraction and the chain of element-wise ops after it (matmul + bias
/// + GELU), read as the GEMM (ProblemView::contraction over the problem's
/// loops: A and B are inputs 0 and 1, the chain's output is output 0, the
/// kernel writes it without reading it) and a program its store stage
/// evaluates once per output element.
struct EpilogueView {
  /// "arg" nodes of position p < ProblemView::inputs.size() read inputs[p]
  /// at the output point (their accesses depend on no k loop); the "arg"
  /// node of position `accumulator` is the sum over k of A * B (f32, from
  /// zero: the program adds the fill value the contraction starts from).
  ScalarProgram program;
  int64_t accumulator = 0;
  /// The node each of ProblemView::outputs takes (one).
  SmallVector<int> outputNodes;
  /// Number of linalg ops fused, the contraction included.
  int64_t numOps = 0;
  /// Operand prologues (matmul(relu(x), w)): the node of `program` whose
  /// value A (B) of the GEMM is, or -1 where the operand is the input
  /// itself. Such a node is computed in f32 from inputs read at the
  /// operand's point (for A, from its batch, m and k loops): "arg" nodes of
  /// position 0 (1 for B) are the input the kernel loads at that point,
  /// the others read their inputs there (broadcasts along the operand).
  int aPrologue = -1, bPrologue = -1;
  bool hasPrologue() const { return aPrologue >= 0 || bPrologue >= 0; }
};

/// Attention, softmax(scale * Q K^T [+ mask]) V per batch index, read off a
/// fused problem's ops exactly (AttentionView.cpp): a contraction of Q and
/// K, element-wise ops that scale the scores and add a mask, a softmax over
/// the keys (linalg.softmax, or its max / exp / sum / divide decomposition)
/// and a contraction of the probabilities with V.
struct AttentionView {
  /// Entry arguments of Q, K, V, the additive mask (-1: none) and O.
  int64_t qArg = 0, kArg = 1, vArg = 2, maskArg = -1, outArg = 3;
  /// The batch index is b * heads + h, for b < batch and h < heads: the
  /// contractions' batch loops (none, one, or two: batch then heads).
  int64_t batch = 1, heads = 1;
  /// Query rows, keys, the head dimension of Q and K, and that of V and O.
  int64_t sq = 1, sk = 1, d = 1, dv = 1;
  /// Element strides of each operand along (b, h, row, column): Q (i, d),
  /// K (j, d), V (j, e), O (i, e), mask (i, j). Zero where the operand does
  /// not depend on that index (a mask shared by all heads).
  std::array<int64_t, 4> qStrides{}, kStrides{}, vStrides{}, oStrides{},
      maskStrides{};
  /// What the scores are multiplied by (the product of the constants the
  /// chain multiplies them by, divided by those it divides them by).
  double scale = 1;
  /// Keys after the query row (j > i) score -inf.
  bool causal = false;
  /// With `causal`: the -inf is added to the score (s + (j > i ? -inf : 0),
  /// NaN where s is NaN or +inf), not selected in its place.
  bool causalAdds = false;
  ElementKind qKind = ElementKind::F32, kKind = ElementKind::F32,
              vKind = ElementKind::F32, oKind = ElementKind::F32,
              maskKind = ElementKind::F32;
  /// Number of linalg ops fused.
  int64_t numOps = 0;
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
  /// Set for a fused problem read as one computation (see FusedView); for a
  /// chain of element-wise ops the rest of the view is also that of one
  /// equivalent element-wise op (loops, inputs, outputs and `body`).
  std::optional<FusedView> fused;
  /// Set for a fused problem that is a contraction with its epilogue (see
  /// EpilogueView); `contraction` and `initValue` are then set too.
  std::optional<EpilogueView> epilogue;
  /// Set for a fused problem that is attention (see AttentionView).
  std::optional<AttentionView> attention;
  /// Set for a problem that fills its output with a constant and then
  /// accumulates into it with one contraction or convolution (see
  /// stark/Analysis/InitFill.h): the view is the second op's, and a kernel
  /// must start its output from this value instead of reading it.
  std::optional<double> initValue;

  int64_t numLoops() const { return int64_t(loopRanges.size()); }
  int64_t numParallelPoints() const;
};

/// Reads the entry function of a problem module: one linalg op (or
/// linalg.softmax) on the entry's memref arguments, plus constants it
/// captures, a constant fill of the output followed by the contraction or
/// convolution that accumulates into it (`initValue`), or a fused problem
/// (several ops) that is a layer norm or an RMS norm. Fails with the reason
/// for anything else.
FailureOr<ProblemView> getProblemView(ModuleOp problem, std::string &whyNot);

/// The ops a problem's entry computes (its constants left out): one linalg
/// structured op or linalg.softmax, a fill and the contraction it
/// initialises, or the chain of a fused problem. Empty when the module has
/// no entry with a body.
SmallVector<Operation *> getProblemOps(ModuleOp problem);

/// Loops sorted by decreasing |coefficient| in `access` (ties keep order).
SmallVector<unsigned> sortLoopsByStride(ArrayRef<unsigned> loops,
                                        const LinearAccess &access);

/// True when `access` walks `loops` (outermost first) densely: the
/// coefficient of the innermost is 1 and each one out is the product of the
/// ranges inside it.
bool isDenseOver(const LinearAccess &access, ArrayRef<unsigned> loops,
                 ArrayRef<int64_t> ranges);

/// Product of `ranges` over `loops`.
int64_t productOver(ArrayRef<unsigned> loops, ArrayRef<int64_t> ranges);

} // namespace mlir::stark

#endif // STARK_ANALYSIS_PROBLEMVIEW_H
