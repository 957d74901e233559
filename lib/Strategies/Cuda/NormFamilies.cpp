//===- NormFamilies.cpp - The layernorm and rmsnorm families --------------===//
//
// The kernels give each row a group of lanes: two passes over the row kept
// in registers, or a streaming Welford pass and a second read.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"
#include "ParamTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkNormApplies(const ProblemView &view, bool rms,
                                        std::string &whyNot) {
  if (!view.norm) {
    whyNot = "the problem is not a fused layer norm or RMS norm";
    return failure();
  }
  if (view.norm->rms != rms) {
    whyNot = rms ? "the problem is a layer norm, not an RMS norm"
                 : "the problem is an RMS norm, not a layer norm";
    return failure();
  }
  return success();
}

static int64_t maxNormVector(const NormView &nv) {
  int64_t bytes =
      std::max(getElementKindBytes(nv.inKind), getElementKindBytes(nv.outKind));
  if (nv.gammaArg >= 0)
    bytes = std::max(bytes, getElementKindBytes(nv.gammaKind));
  if (nv.betaArg >= 0)
    bytes = std::max(bytes, getElementKindBytes(nv.betaKind));
  int64_t v = 16 / bytes;
  while (v > 1 && nv.length % v)
    v /= 2;
  return v;
}

static int64_t cachedPerLane(const NormView &nv, int64_t threads, int64_t vec) {
  return ceilDiv(nv.length, threads * vec) * vec;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateNormKernel(const ProblemView &view, const NormParams &p,
                                std::string &whyNot) {
  if (!view.norm) {
    whyNot = "the problem is not a fused layer norm or RMS norm";
    return failure();
  }
  const NormView &nv = *view.norm;
  if (!isPowerOfTwo(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || (p.threads * p.rows) % 32 ||
      !isPowerOfTwo(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows a multiple of "
             "32 and at most 1024, vec a power of two";
    return failure();
  }
  if (failed(checkRowVector(p.vec, maxNormVector(nv), whyNot)) ||
      (p.cache &&
       failed(checkRegisterCache(cachedPerLane(nv, p.threads, p.vec), whyNot))))
    return failure();
  bool dbl = llvm::any_of(view.argKinds,
                          [](ElementKind k) { return k == ElementKind::F64; });
  ElementKind ck = dbl ? ElementKind::F64 : ElementKind::F32;
  std::string ct = dbl ? "double" : "float";
  std::string family = nv.rms ? "rmsnorm" : "layernorm";
  std::string kernel = "stark_" + family;
  auto mean = [&](bool byFactor, double factor) {
    return byFactor ? "s * " + emitScalarLiteral(ck, factor, 0)
                    : std::string("s / (Compute)kLen");
  };
  auto pointer = [](int64_t arg) {
    return arg >= 0 ? argName(arg) : std::string("nullptr");
  };
  auto flag = [](bool b) { return b ? "true" : "false"; };

  // The kernel is Norm.cuh; the part written here is the problem as its
  // config (with the payload's mean, variance and epsilon) and the entry.
  std::string s = getCudaPrelude(view, {"Loops.cuh", "Lanes.cuh", "Norm.cuh"});
  llvm::raw_string_ostream os(s);
  std::string eps = emitScalarLiteral(ck, nv.eps, 0);
  os << "// " << (nv.rms ? "RMS norm" : "Layer norm") << " of " << nv.rows
     << " rows of " << nv.length << ", eps " << eps
     << (nv.gammaArg >= 0 ? ", gamma" : "") << (nv.betaArg >= 0 ? ", beta" : "")
     << ".\n";
  os << "struct StarkNorm {\n";
  os << "  typedef " << getIndexType(view) << " Idx;\n";
  os << "  typedef " << ct << " Compute;\n";
  os << "  typedef " << getCudaStorageType(nv.inKind) << " In;\n";
  os << "  typedef " << getCudaStorageType(nv.outKind) << " Out;\n";
  os << "  typedef " << getCudaStorageType(nv.gammaKind) << " Gamma;\n";
  os << "  typedef " << getCudaStorageType(nv.betaKind) << " Beta;\n";
  os << "  static constexpr Idx kRows = " << nv.rows << ", kLen = " << nv.length
     << ";\n";
  os << "  static constexpr int kLanes = " << p.threads
     << ", kRowsPerBlock = " << p.rows << ", kVec = " << p.vec << ";\n";
  os << "  static constexpr bool kCache = " << flag(p.cache)
     << ", kRms = " << flag(nv.rms) << ", kDivide = " << flag(nv.divideBySqrt)
     << ";\n";
  os << "  static constexpr bool kHasGamma = " << flag(nv.gammaArg >= 0)
     << ", kHasBeta = " << flag(nv.betaArg >= 0) << ";\n";
  os << "  static __device__ __forceinline__ Compute eps() { return " << eps
     << "; }\n";
  os << "  static __device__ __forceinline__ Compute mean(Compute s) { return "
     << mean(nv.meanByFactor, nv.meanFactor) << "; }\n";
  os << "  static __device__ __forceinline__ Compute variance(Compute s) { "
        "return "
     << mean(nv.varByFactor, nv.varFactor) << "; }\n";
  os << "};\n\n";
  os << "extern \"C\" __global__ void __launch_bounds__(" << p.threads * p.rows
     << ") " << kernel << "(" << getKernelParameters(view) << ") {\n";
  os << "  stark_kernels::normRows<StarkNorm>(" << argName(nv.inputArg) << ", "
     << argName(nv.outputArg) << ", " << pointer(nv.gammaArg) << ", "
     << pointer(nv.betaArg) << ");\n}\n";

  return makeOneLaunchPlan(
      family, std::move(s), kernel, {ceilDiv(nv.rows, p.rows), 1, 1},
      {p.threads, p.rows, 1},
      /*staticShared=*/3 * p.rows * std::max<int64_t>(1, p.threads / 32) *
          (dbl ? 8 : 4));
}

std::vector<NormParams> cudatpl::enumerateNorm(const ProblemView &view,
                                               const HardwareProfile &profile) {
  const NormView &nv = *view.norm;
  int64_t maxThreads = getMaxBlockThreads(profile);
  int64_t maxVec = maxNormVector(nv);
  int64_t sms = getNumUnits(profile);
  std::vector<NormParams> out;
  auto add = [&](int64_t threads, int64_t rows, int64_t vec) {
    if (threads * rows > std::min<int64_t>(maxThreads, 1024) ||
        (threads * rows) % 32)
      return;
    for (const NormParams &q : out)
      if (q.threads == threads && q.rows == rows && q.vec == vec)
        return;
    // A row that fits in the lanes' registers is read once: that variant
    // goes first.
    if (cachedPerLane(nv, threads, vec) <= 32)
      out.push_back({threads, rows, vec, /*cache=*/true});
    out.push_back({threads, rows, vec, /*cache=*/false});
  };
  for (RowBlockShape shape : getRowBlockShapes(nv.length, maxVec, nv.rows, sms,
                                               {256, 512, 1024, 128}))
    add(shape.lanes, shape.rows, shape.vec);
  return out;
}

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

/// layernorm and rmsnorm: one generator, the view says which norm it is,
/// and the family's name must agree with it.
static std::unique_ptr<StrategyFamily> createNormFamily(StringRef name,
                                                        bool rms) {
  using P = NormParams;
  static const ParamField<P> fields[] = {{"threads", &P::threads},
                                         {"rows", &P::rows},
                                         {"vec", &P::vec},
                                         {"cache", &P::cache}};
  auto rank = [rms](const ProblemView &view, bool) -> std::optional<unsigned> {
    if (getRankingKind(view) != RankingKind::Norm || view.norm->rms != rms)
      return std::nullopt;
    return kFirst;
  };
  auto check = [rms](const ProblemView &view, std::string &whyNot) {
    return checkNormApplies(view, rms, whyNot);
  };
  auto generate = [rms](const ProblemView &view, const P &p,
                        std::string &whyNot) -> FailureOr<CudaKernelPlan> {
    if (failed(checkNormApplies(view, rms, whyNot)))
      return failure();
    return generateNormKernel(view, p, whyNot);
  };
  return makeFunctionFamily<P>(name, fields, {}, rank, check, enumerateNorm,
                               generate);
}

std::unique_ptr<StrategyFamily> mlir::stark::createLayerNormFamily() {
  return createNormFamily("layernorm", /*rms=*/false);
}

std::unique_ptr<StrategyFamily> mlir::stark::createRmsNormFamily() {
  return createNormFamily("rmsnorm", /*rms=*/true);
}
