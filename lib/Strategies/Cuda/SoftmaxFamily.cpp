//===- SoftmaxFamily.cpp - The softmax family -----------------------------===//
//
// linalg.softmax in the online (running max, rescaled sum) form, one row per
// lane group.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"
#include "ParamTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// softmax
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkSoftmaxApplies(const ProblemView &view,
                                           std::string &whyNot) {
  if (!view.softmax) {
    whyNot = "the problem is not linalg.softmax";
    return failure();
  }
  if (!isFloatKind(view.softmax->inKind) ||
      !isFloatKind(view.softmax->outKind)) {
    whyNot = "softmax needs float input and output";
    return failure();
  }
  return success();
}

static int64_t maxSoftmaxVector(const SoftmaxView &sv) {
  if (sv.inner != 1)
    return 1;
  int64_t bytes =
      std::max(getElementKindBytes(sv.inKind), getElementKindBytes(sv.outKind));
  int64_t v = 16 / bytes;
  while (v > 1 && sv.length % v)
    v /= 2;
  return v;
}

FailureOr<CudaKernelPlan> mlir::stark::generateSoftmaxKernel(
    const ProblemView &view, const SoftmaxParams &p, std::string &whyNot) {
  if (failed(checkSoftmaxApplies(view, whyNot)))
    return failure();
  const SoftmaxView &sv = *view.softmax;
  if (!isPowerOfTwo(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || !isPowerOfTwo(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows at most 1024, "
             "vec a power of two";
    return failure();
  }
  if (p.cache < 0 || p.cache > 2) {
    whyNot = "cache must be 0 (none), 1 (registers) or 2 (shared memory)";
    return failure();
  }
  int64_t rowBytes = sv.length * getElementKindBytes(sv.inKind);
  if (p.cache == 2 && p.rows * rowBytes > kMaxRowCacheBytes) {
    whyNot = llvm::formatv("cache=2 keeps {0} rows of {1} bytes in shared "
                           "memory (at most {2} bytes)",
                           p.rows, rowBytes, kMaxRowCacheBytes);
    return failure();
  }
  if ((p.cache == 1 &&
       failed(checkRegisterCache(ceilDiv(sv.length, p.threads * p.vec) * p.vec,
                                 whyNot))) ||
      failed(checkRowVector(p.vec, maxSoftmaxVector(sv), whyNot)))
    return failure();
  std::string idx = getIndexType(view);
  bool dbl = sv.inKind == ElementKind::F64 || sv.outKind == ElementKind::F64;
  std::string ct = dbl ? "double" : "float";
  std::string inType = getCudaStorageType(sv.inKind).str();
  std::string outType = getCudaStorageType(sv.outKind).str();

  // The kernel is Softmax.cuh; the part written here is the problem as its
  // config and the entry point.
  std::string s =
      getCudaPrelude(view, {"Loops.cuh", "Lanes.cuh", "Softmax.cuh"});
  llvm::raw_string_ostream os(s);
  os << "// Online softmax along dimension " << sv.dim << ": " << sv.rows
     << " rows of " << sv.length << ", stride " << sv.inner << ".\n";
  os << "struct StarkSoftmax {\n";
  os << "  typedef " << idx << " Idx;\n";
  os << "  typedef " << ct << " Compute;\n";
  os << "  typedef " << inType << " In;\n";
  os << "  typedef " << outType << " Out;\n";
  os << "  static constexpr Idx kRows = " << sv.rows << ", kLen = " << sv.length
     << ", kInner = " << sv.inner << ";\n";
  os << "  static constexpr int kLanes = " << p.threads
     << ", kRowsPerBlock = " << p.rows << ", kVec = " << p.vec << ";\n";
  os << "  // Where each lane's part of a row stays between the passes.\n";
  os << "  static constexpr int kCache = "
     << (p.cache == 2   ? "stark_kernels::kRowCacheShared"
         : p.cache == 1 ? "stark_kernels::kRowCacheRegisters"
                        : "stark_kernels::kRowCacheNone")
     << ";\n";
  os << "};\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(" << p.threads * p.rows
     << ") stark_softmax(" << getKernelParameters(view) << ") {\n";
  os << "  stark_kernels::softmaxRows<StarkSoftmax>(" << argName(0) << ", "
     << argName(1) << ");\n}\n";

  return makeOneLaunchPlan(
      "softmax", std::move(s), "stark_softmax",
      {ceilDiv(sv.rows, p.rows), 1, 1}, {p.threads, p.rows, 1},
      /*staticShared=*/p.threads > 32
          ? 2 * p.rows * (p.threads / 32) * (dbl ? 8 : 4)
          : 0,
      /*dynamicShared=*/p.cache == 2 ? p.rows * rowBytes : 0);
}

std::vector<SoftmaxParams>
cudatpl::enumerateSoftmax(const ProblemView &view,
                          const HardwareProfile &profile) {
  const SoftmaxView &sv = *view.softmax;
  int64_t maxThreads = getMaxBlockThreads(profile);
  int64_t maxVec = maxSoftmaxVector(sv);
  int64_t sms = getNumUnits(profile);
  std::vector<SoftmaxParams> out;
  auto add = [&](int64_t threads, int64_t rows, int64_t vec) {
    if (threads * rows > maxThreads || threads * rows > 1024)
      return;
    for (const SoftmaxParams &q : out)
      if (q.threads == threads && q.rows == rows && q.vec == vec)
        return;
    // A row that fits in the lanes' registers is read once: that variant
    // goes first. A longer one that fits in shared memory (two blocks to an
    // SM, so that one block's loads overlap the other's reduction) is kept
    // there.
    if (ceilDiv(sv.length, threads * vec) * vec <= 32)
      out.push_back({threads, rows, vec, /*cache=*/1});
    else if (rowCachesFitTwoBlocks(profile, rows * sv.length *
                                                getElementKindBytes(sv.inKind)))
      out.push_back({threads, rows, vec, /*cache=*/2});
    out.push_back({threads, rows, vec, /*cache=*/0});
  };
  if (sv.inner > 1) {
    // Strided rows: a thread per row keeps neighbouring threads on
    // neighbouring addresses.
    for (int64_t rows : {128, 256, 64})
      add(1, rows, 1);
    for (int64_t rows : {4, 8})
      add(32, rows, 1);
    return out;
  }
  for (RowBlockShape shape : getRowBlockShapes(sv.length, maxVec, sv.rows, sms,
                                               {512, 256, 1024, 128, 32}))
    add(shape.lanes, shape.rows, shape.vec);
  return out;
}

std::unique_ptr<StrategyFamily> mlir::stark::createSoftmaxFamily() {
  using P = SoftmaxParams;
  static const ParamField<P> fields[] = {{"threads", &P::threads},
                                         {"rows", &P::rows},
                                         {"vec", &P::vec},
                                         {"cache", &P::cache}};
  auto rank = [](const ProblemView &view, bool) -> std::optional<unsigned> {
    if (getRankingKind(view) != RankingKind::Softmax)
      return std::nullopt;
    return hasLongSoftmaxRows(view) ? kSecond : kFirst;
  };
  return makeFunctionFamily<P>("softmax", fields, {}, rank, checkSoftmaxApplies,
                               enumerateSoftmax, generateSoftmaxKernel);
}
