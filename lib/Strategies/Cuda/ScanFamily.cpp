//===- ScanFamily.cpp - Prefix scans (cumsum, cumprod) --------------------===//
//
// linalg has no scan op: frontends write cumsum as a masked reduction,
// out[.., j] += sum over k of (k <= j ? x[.., k] : 0), which costs O(L^2)
// as a reduction. The scan family recognises the mask (inclusive or
// exclusive, forward or reverse, any combiner with an identity) and runs a
// real scan: one block per row walks the row in chunks, each thread scans
// its own elements, the block scans the threads' totals with warp shuffles
// and shared memory, and a running carry joins the chunks: O(L) per row.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"
#include "ParamTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
/// A reduction that is a scan along loop `scanLoop` (the output's) of the
/// values at reduced loop `reducedLoop`.
struct ScanMatch {
  unsigned scanLoop = 0, reducedLoop = 0;
  /// The rows: the parallel loops but the scan loop, outermost first.
  SmallVector<unsigned> rowLoops;
  int64_t rows = 1, length = 1;
  bool exclusive = false, reverse = false;
  /// The node of the value scanned (the select's true operand).
  int valueNode = -1;
};
} // namespace

/// Predicate of `a PRED b` written as `b PRED' a`.
static std::string swapPredicate(StringRef p) {
  return llvm::StringSwitch<std::string>(p)
      .Case("ule", "uge")
      .Case("uge", "ule")
      .Case("ult", "ugt")
      .Case("ugt", "ult")
      .Case("sle", "sge")
      .Case("sge", "sle")
      .Case("slt", "sgt")
      .Case("sgt", "slt")
      .Default(p.str());
}

static bool isIdentityConstant(const ScalarNode &node, StringRef combiner) {
  if (node.op != "const")
    return false;
  if (combiner == "add")
    return isFloatKind(node.kind) ? node.floatValue == 0 : node.intValue == 0;
  if (combiner == "mul")
    return isFloatKind(node.kind) ? node.floatValue == 1 : node.intValue == 1;
  return false;
}

static LogicalResult matchScan(const ProblemView &view, ScanMatch &m,
                               std::string &whyNot) {
  if (!view.reduction || !view.body || view.fused) {
    whyNot = "the problem is not a single reduction";
    return failure();
  }
  const ReductionView &rv = *view.reduction;
  const ScalarProgram &body = *view.body;
  if (rv.reducedLoops.size() != 1 || view.outputs.size() != 1) {
    whyNot = "a scan reduces one loop into one output";
    return failure();
  }
  if (rv.combiner != "add" && rv.combiner != "mul") {
    whyNot = "scans combine with add or mul";
    return failure();
  }
  const ScalarNode &select = body.nodes[rv.preNode];
  if (select.op != "arith.select" || select.operands.size() != 3) {
    whyNot = "the reduced value is not select(k <cmp> j, x, identity)";
    return failure();
  }
  const ScalarNode &cmp = body.nodes[select.operands[0]];
  if (cmp.op != "arith.cmpi" ||
      !isIdentityConstant(body.nodes[select.operands[2]], rv.combiner)) {
    whyNot = "the reduced value is not select(k <cmp> j, x, identity)";
    return failure();
  }
  const ScalarNode &lhs = body.nodes[cmp.operands[0]];
  const ScalarNode &rhs = body.nodes[cmp.operands[1]];
  if (lhs.op != "index" || rhs.op != "index") {
    whyNot = "the mask does not compare two loop indices";
    return failure();
  }
  unsigned reduced = rv.reducedLoops[0];
  std::string pred = cmp.predicate;
  int64_t other;
  if (lhs.position == reduced) {
    other = rhs.position;
  } else if (rhs.position == reduced) {
    other = lhs.position;
    pred = swapPredicate(pred);
  } else {
    whyNot = "the mask does not compare the reduced loop";
    return failure();
  }
  if (!llvm::is_contained(rv.parallelLoops, unsigned(other)) ||
      view.loopRanges[other] != view.loopRanges[reduced]) {
    whyNot = "the mask compares the reduced loop with no parallel loop of "
             "the same range";
    return failure();
  }
  // k <= j: inclusive; k < j: exclusive; k >= j, k > j: from the end.
  StringRef p = StringRef(pred).drop_front(1);
  if (p != "le" && p != "lt" && p != "ge" && p != "gt") {
    whyNot = "the mask's predicate is not an order";
    return failure();
  }
  m.exclusive = p == "lt" || p == "gt";
  m.reverse = p == "ge" || p == "gt";
  m.scanLoop = unsigned(other);
  m.reducedLoop = reduced;
  m.valueNode = select.operands[1];
  m.length = view.loopRanges[reduced];
  // The scanned value may read inputs at (rows, k) but not depend on j, nor
  // read the output.
  SmallVector<bool> deps = body.reachable({m.valueNode});
  unsigned numInputs = view.inputs.size();
  for (auto [i, node] : llvm::enumerate(body.nodes)) {
    if (!deps[i])
      continue;
    if ((node.op == "index" && node.position == other) ||
        (node.op == "arg" && node.position >= numInputs)) {
      whyNot = "the scanned value depends on the scan position";
      return failure();
    }
  }
  const OperandView &out = view.outputs[0];
  if (out.argNumber < 0 || out.access.dependsOn(reduced)) {
    whyNot = "the output depends on the reduced loop";
    return failure();
  }
  for (unsigned d : rv.parallelLoops)
    if (d != m.scanLoop) {
      m.rowLoops.push_back(d);
      m.rows *= view.loopRanges[d];
    }
  if (!isFloatKind(rv.accumulatorKind) && rv.combiner == "mul") {
    whyNot = "integer products are left to the reduction families";
    return failure();
  }
  return success();
}

namespace {
struct ScanParams {
  int64_t threads = 256;
  int64_t items = 4; // elements per thread per chunk
};
} // namespace

/// Thread counts and items per thread worth trying for a row's length.
static std::vector<ScanParams> enumerateScan(const ProblemView &view,
                                             const HardwareProfile &profile) {
  ScanMatch m;
  std::string ignored;
  if (failed(matchScan(view, m, ignored)))
    return {};
  int64_t maxThreads = getMaxBlockThreads(profile);
  std::vector<ScanParams> out;
  // Enough elements per block that a chunk covers a short row once.
  for (auto [threads, items] : {std::pair<int64_t, int64_t>{256, 4},
                                {512, 4},
                                {128, 8},
                                {1024, 2},
                                {256, 8},
                                {64, 4},
                                {32, 4}}) {
    if (threads > maxThreads)
      continue;
    if (threads > 32 && threads * items / 2 >= m.length)
      continue; // half the block would idle
    out.push_back({threads, items});
  }
  if (out.empty())
    out.push_back({32, 1});
  return out;
}

static FailureOr<CudaKernelPlan> generateScanKernel(const ProblemView &view,
                                                    const ScanParams &p,
                                                    std::string &whyNot) {
  ScanMatch m;
  if (failed(matchScan(view, m, whyNot)))
    return failure();
  if (p.threads < 32 || p.threads > 1024 || p.threads % 32 || p.items < 1 ||
      p.items > 16) {
    whyNot = "threads must be a multiple of 32 up to 1024, items 1 to 16";
    return failure();
  }
  const ReductionView &rv = *view.reduction;
  const OperandView &out = view.outputs[0];
  std::string idx = getIndexType(view);
  SmallVector<std::string> names = loopNames(view);
  std::string acc = getCudaComputeType(rv.accumulatorKind).str();

  // The kernel is Scan.cuh; the part written here is the problem as its
  // config and the row's loads and stores.
  std::string s = getCudaPrelude(view, {"Scan.cuh"});
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("// {0} {1} scan ({2}) of {3}: {4} rows of {5}.\n",
                      m.exclusive ? "Exclusive" : "Inclusive",
                      m.reverse ? "reverse" : "forward", rv.combiner,
                      view.opName, m.rows, m.length);
  os << "typedef " << idx << " idx_t;\n";
  os << "typedef " << acc << " acc_t;\n";
  os << "constexpr idx_t ROWS = " << m.rows << ";\n";
  os << "struct StarkScan {\n";
  os << "  typedef idx_t Idx;\n  typedef acc_t Acc;\n";
  os << "  static constexpr Idx kLen = " << m.length << ";\n";
  os << "  static constexpr int kThreads = " << p.threads
     << ", kItems = " << p.items << ";\n";
  os << "  static constexpr bool kExclusive = "
     << (m.exclusive ? "true" : "false") << ";\n";
  os << "  static __device__ __forceinline__ Acc op(Acc a, Acc b) { return "
     << emitCombine(rv.combiner, rv.accumulatorKind, "a", "b") << "; }\n";
  os << "  static __device__ __forceinline__ Acc identity() { return "
     << emitCombineIdentity(rv.combiner, rv.accumulatorKind) << "; }\n";
  os << "};\n";
  os << "\nextern \"C\" __global__ void __launch_bounds__(" << p.threads
     << ") stark_scan(" << getKernelParameters(view) << ") {\n";
  os << "  const idx_t row = blockIdx.x;\n";
  os << "  if (row >= ROWS) return;\n";
  os << emitDecode("  ", "idx_t", "row", m.rowLoops, view.loopRanges, names);
  // q: the position in scan order; the loop index it stands for runs
  // backwards in a reverse scan.
  std::string position = m.reverse ? "StarkScan::kLen - 1 - q" : "q";
  os << "  auto load = [&](idx_t q) -> acc_t {\n";
  os << "    const idx_t " << names[m.reducedLoop] << " = " << position
     << ";\n";
  SmallVector<std::string> argExprs;
  for (auto [k, in] : llvm::enumerate(view.inputs)) {
    if (in.argNumber < 0) {
      argExprs.push_back("0");
      continue;
    }
    SmallVector<unsigned> loops = m.rowLoops;
    loops.push_back(m.reducedLoop);
    argExprs.push_back("stark_widen(" + argName(in.argNumber) + "[" +
                       emitLinearOffset(in.access, loops, names, true) + "])");
  }
  argExprs.push_back("StarkScan::identity()"); // the output: never read
  SmallVector<std::string> results;
  std::string value = emitScalarProgram(*view.body, argExprs, names, "n",
                                        results, {m.valueNode});
  emitLines(os, "    ", value);
  os << "    return (acc_t)(" << results[0] << ");\n";
  os << "  };\n";
  SmallVector<unsigned> outLoops = m.rowLoops;
  outLoops.push_back(m.scanLoop);
  std::string outIndex = emitLinearOffset(out.access, outLoops, names, true);
  std::string outPtr = argName(out.argNumber);
  std::string init =
      view.initValue ? emitScalarLiteral(rv.accumulatorKind, *view.initValue,
                                         int64_t(*view.initValue))
                     : "(acc_t)stark_widen(" + outPtr + "[" + outIndex + "])";
  os << "  auto store = [&](idx_t q, acc_t prefix) {\n";
  os << "    const idx_t " << names[m.scanLoop] << " = " << position << ";\n";
  os << "    " << outPtr << "[" << outIndex << "] = stark_cast<"
     << getCudaStorageType(out.kind) << ">(StarkScan::op(" << init
     << ", prefix));\n";
  os << "  };\n";
  os << "  stark_kernels::scanRow<StarkScan>(load, store);\n}\n";

  return makeOneLaunchPlan("scan", std::move(s), "stark_scan", {m.rows, 1, 1},
                           {p.threads, 1, 1},
                           /*staticShared=*/(p.threads / 32) *
                               getElementKindBytes(rv.accumulatorKind));
}

std::unique_ptr<StrategyFamily> mlir::stark::createScanFamily() {
  using P = ScanParams;
  static const ParamField<P> fields[] = {{"threads", &P::threads},
                                         {"items", &P::items}};
  auto rank = [](const ProblemView &view, bool) -> std::optional<unsigned> {
    if (!view.reduction || getRankingKind(view) != RankingKind::Other)
      return std::nullopt;
    return kScan;
  };
  auto check = [](const ProblemView &view, std::string &whyNot) {
    ScanMatch m;
    return matchScan(view, m, whyNot);
  };
  return makeFunctionFamily<P>("scan", fields, {/*initValue=*/true}, rank,
                               check, enumerateScan, generateScanKernel);
}
