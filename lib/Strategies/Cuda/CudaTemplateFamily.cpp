//===- CudaTemplateFamily.cpp - The CUDA C++ template families ------------===//
//
// What every template family does the same way on top of its check,
// enumeration and generator: applicability on a problem, the order in which
// the families are offered, points, and the candidate module of a plan.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "stark/Problem/KernelProblem.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

#define DEBUG_TYPE "stark-families"

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

const CudaTemplateFamily *cudatpl::lookupTemplateFamily(StringRef name) {
  return dyn_cast_or_null<CudaTemplateFamily>(
      StrategyRegistry::get().lookup(name));
}

ArrayRef<StringRef> mlir::stark::getCudaTemplateFamilies() {
  static const SmallVector<StringRef> names = [] {
    SmallVector<StringRef> out;
    for (const StrategyFamily *family :
         StrategyRegistry::get().getFamilies("cuda"))
      if (isa<CudaTemplateFamily>(family))
        out.push_back(family->getName());
    return out;
  }();
  return names;
}

static std::string unknownFamily(StringRef family) {
  return llvm::formatv("unknown family '{0}' (known: {1})", family,
                       llvm::join(getCudaTemplateFamilies(), ", "));
}

//===----------------------------------------------------------------------===//
// Ranking
//===----------------------------------------------------------------------===//

RankingKind cudatpl::getRankingKind(const ProblemView &view) {
  if (view.attention)
    return RankingKind::Attention;
  if (view.isSoftmax)
    return RankingKind::Softmax;
  if (view.norm)
    return RankingKind::Norm;
  if (view.fused && !view.fused->reductions.empty())
    return RankingKind::FusedRows;
  // A window per output and no reuse across outputs: depthwise is a
  // contraction batched over channels with n = 1, where a GEMM tile would
  // be mostly waste.
  if (view.opClass == OpClass::Pooling ||
      (view.convolution && view.convolution->depthwise))
    return RankingKind::Window;
  return RankingKind::Other;
}

bool cudatpl::isSkinnyContraction(const ProblemView &view) {
  return view.contraction &&
         std::min(view.contraction->m, view.contraction->n) < 16;
}

bool cudatpl::ranksAsContraction(const ProblemView &view) {
  return view.contraction && getRankingKind(view) == RankingKind::Other;
}

bool cudatpl::hasShallowK(const ProblemView &view) {
  return view.contraction && view.contraction->k < kGemmKernelMinPipelinedK;
}

bool cudatpl::hasLongSoftmaxRows(const ProblemView &view) {
  return view.softmax && view.softmax->inner == 1 &&
         view.softmax->length > 8192;
}

std::optional<unsigned> cudatpl::rankReductionFamily(const ProblemView &view,
                                                     bool rows) {
  if (getRankingKind(view) != RankingKind::Other)
    return std::nullopt;
  bool contiguous = view.reduction && view.reduction->innerContiguous;
  std::optional<unsigned> band;
  auto offer = [&](unsigned b) { band = std::min(band.value_or(b), b); };
  if (view.contraction) {
    if (!isSkinnyContraction(view))
      offer(rows ? kRowReductionOfContraction : kColReductionOfContraction);
    else if (rows == contiguous)
      offer(kSkinnyContraction);
  }
  if (view.reduction)
    offer(rows == contiguous ? kMatchingReduction : kOtherReduction);
  return band;
}

SmallVector<StringRef> cudatpl::rankTemplateFamilies(const ProblemView &view,
                                                     bool allowTf32) {
  SmallVector<std::pair<unsigned, StringRef>> ranked;
  for (const StrategyFamily *family :
       StrategyRegistry::get().getFamilies("cuda"))
    if (const auto *f = dyn_cast<CudaTemplateFamily>(family))
      if (std::optional<unsigned> band = f->rank(view, allowTf32))
        ranked.push_back({*band, f->getName()});
  llvm::stable_sort(
      ranked, [](const auto &a, const auto &b) { return a.first < b.first; });
  return llvm::to_vector(llvm::make_second_range(ranked));
}

LogicalResult mlir::stark::checkFamilyApplies(StringRef family,
                                              const ProblemView &view,
                                              std::string &whyNot) {
  const CudaTemplateFamily *f = lookupTemplateFamily(family);
  if (!f) {
    whyNot = unknownFamily(family);
    return failure();
  }
  return f->checkView(view, /*allowTf32=*/true, whyNot);
}

SmallVector<std::string>
mlir::stark::getApplicableFamilies(const ProblemView &view, bool allowTf32) {
  SmallVector<std::string> order;
  std::string ignored;
  for (StringRef name : rankTemplateFamilies(view, allowTf32)) {
    const CudaTemplateFamily *family = lookupTemplateFamily(name);
    if (family && succeeded(family->checkView(view, allowTf32, ignored)))
      order.push_back(name.str());
    else
      LLVM_DEBUG(llvm::dbgs() << "family " << name << " declines: "
                              << (family ? ignored : "not registered") << "\n");
  }
  LLVM_DEBUG(llvm::dbgs() << "families in rank order: "
                          << llvm::join(order, ", ") << "\n");
  return order;
}

std::vector<TemplateParams>
mlir::stark::enumerateParams(StringRef family, const ProblemView &view,
                             const HardwareProfile &profile,
                             const EnumerateOptions &options) {
  std::vector<TemplateParams> out;
  // Every kernel assumes 32-lane warps (shuffle widths, warp tiles).
  if (profile.warpSize > 0 && profile.warpSize != 32)
    return out;
  const CudaTemplateFamily *f = lookupTemplateFamily(family);
  std::string ignored;
  if (!f || failed(f->checkView(view, options.allowTf32, ignored)))
    return out;
  out = f->enumerate(view, profile, options.allowTf32);
  if (options.limit > 0 && int64_t(out.size()) > options.limit)
    out.resize(options.limit);
  return out;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateCudaKernel(StringRef family, const ProblemView &view,
                                const TemplateParams &params,
                                std::string &whyNot) {
  if (failed(checkFamilyApplies(family, view, whyNot)))
    return failure();
  return lookupTemplateFamily(family)->generate(view, params, whyNot);
}

LogicalResult
CudaTemplateFamily::takeParams(const TemplateParams &given,
                               ArrayRef<std::pair<StringRef, int64_t *>> slots,
                               std::string &whyNot) const {
  for (auto &[key, value] : given) {
    auto it =
        llvm::find_if(slots, [&](auto &slot) { return slot.first == key; });
    if (it == slots.end()) {
      SmallVector<StringRef> names;
      for (auto &slot : slots)
        names.push_back(slot.first);
      whyNot = llvm::formatv("family '{0}' has no parameter '{1}' (it has: "
                             "{2})",
                             name, key, llvm::join(names, ", "));
      return failure();
    }
    *it->second = value;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// A family on a problem
//===----------------------------------------------------------------------===//

/// Enough to refine around the best guess without flooding the search.
static constexpr int64_t kParamSetsPerFamily = 24;

LogicalResult CudaTemplateFamily::applies(const StrategyProblem &problem,
                                          std::string &whyNot) const {
  const ProblemView *view = problem.getView(whyNot);
  if (!view)
    return failure();
  return checkView(*view, problem.getOptions().allowTf32, whyNot);
}

LogicalResult CudaTemplateFamily::checkView(const ProblemView &view,
                                            bool allowTf32,
                                            std::string &whyNot) const {
  if (view.epilogue && !handlesEpilogue()) {
    whyNot = llvm::formatv("{0} does not compute the element-wise ops after "
                           "the contraction ({1})",
                           name, view.opName);
    return failure();
  }
  if (view.epilogue && view.epilogue->hasPrologue() &&
      !handlesOperandPrologues()) {
    whyNot = llvm::formatv("{0} does not compute the element-wise ops before "
                           "the contraction as it loads its operands",
                           name);
    return failure();
  }
  if (view.initValue && !handlesInitValue()) {
    whyNot = llvm::formatv("the problem fills its output before the {0} "
                           "accumulates into it, and {1} would read the "
                           "output instead",
                           view.opName, name);
    return failure();
  }
  return check(view, allowTf32, whyNot);
}

std::optional<unsigned>
CudaTemplateFamily::getRank(const StrategyProblem &problem) const {
  std::string ignored;
  const ProblemView *view = problem.getView(ignored);
  if (!view)
    return std::nullopt;
  return rank(*view, problem.getOptions().allowTf32);
}

std::vector<StrategyPoint>
CudaTemplateFamily::getPoints(const StrategyProblem &problem) const {
  std::vector<StrategyPoint> points;
  std::string ignored;
  const ProblemView *view = problem.getView(ignored);
  if (!view)
    return points;
  EnumerateOptions options;
  options.limit = kParamSetsPerFamily;
  options.allowTf32 = problem.getOptions().allowTf32;
  for (const TemplateParams &params :
       enumerateParams(name, *view, problem.getProfile(), options)) {
    StrategyPoint point;
    point.family = name.str();
    for (const auto &[key, value] : params)
      point.params[key] = std::to_string(value);
    point.description = name.str() + " " + formatTemplateParams(params);
    points.push_back(std::move(point));
  }
  return points;
}

FailureOr<std::string> CudaTemplateFamily::build(const StrategyProblem &problem,
                                                 const StrategyPoint &point,
                                                 std::string &error) const {
  const ProblemView *view = problem.getView(error);
  if (!view)
    return failure();
  FailureOr<TemplateParams> params = getIntegerParams(point, error);
  if (failed(params) || failed(checkView(*view, /*allowTf32=*/true, error)))
    return failure();
  FailureOr<CudaKernelPlan> plan = generate(*view, *params, error);
  if (failed(plan))
    return failure();
  FailureOr<OwningOpRef<ModuleOp>> candidate =
      buildCudaCandidateModule(problem.getModule(), *plan, error);
  if (failed(candidate))
    return failure();
  return printCandidate(**candidate);
}

//===----------------------------------------------------------------------===//
// Parameters and candidates
//===----------------------------------------------------------------------===//

FailureOr<TemplateParams> mlir::stark::parseTemplateParams(StringRef text,
                                                           std::string &error) {
  TemplateParams params;
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    value = value.trim();
    int64_t v;
    if (key.empty() || value.getAsInteger(10, v)) {
      error = llvm::formatv("cannot parse parameter '{0}' (expected "
                            "name=integer)",
                            item.trim());
      return failure();
    }
    params[key.lower()] = v;
  }
  return params;
}

std::string mlir::stark::formatTemplateParams(const TemplateParams &params) {
  std::string s;
  for (auto &[key, value] : params) {
    if (!s.empty())
      s += ",";
    s += key + "=" + std::to_string(value);
  }
  return s;
}

FailureOr<OwningOpRef<ModuleOp>> mlir::stark::buildCudaCandidateModule(
    ModuleOp problem, const CudaKernelPlan &plan, std::string &error) {
  std::string entry = kProblemEntryName.str();
  if (auto info = problem->getAttrOfType<ProblemAttr>(kProblemAttrName))
    entry = info.getEntry().str();
  OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(problem->clone());
  auto func = candidate->lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    error = llvm::formatv("no function @{0} with a body", entry);
    return failure();
  }
  if (plan.launches.empty() || plan.source.empty()) {
    error = "the plan has no source or no launch";
    return failure();
  }
  // The body is replaced by the kernels: keep only the terminator. Users
  // go before their definitions.
  Block &body = func.getBody().front();
  SmallVector<Operation *> doomed;
  for (Operation &op : body.without_terminator())
    doomed.push_back(&op);
  for (Operation *op : llvm::reverse(doomed))
    op->erase();

  MLIRContext *ctx = candidate->getContext();
  Builder b(ctx);
  SmallVector<Attribute> launches;
  for (const CudaKernelPlan::Launch &l : plan.launches) {
    SmallVector<Attribute> maps;
    for (const CudaKernelPlan::TensorMap &m : l.tensorMaps)
      maps.push_back(TensorMapAttr::get(ctx, m.arg,
                                        b.getDenseI64ArrayAttr(m.box),
                                        b.getDenseI64ArrayAttr(m.shape)));
    launches.push_back(
        LaunchAttr::get(ctx, b.getDenseI64ArrayAttr(l.block),
                        b.getDenseI64ArrayAttr(l.grid), l.kernel, l.sharedBytes,
                        maps.empty() ? ArrayAttr() : b.getArrayAttr(maps)));
  }
  ArrayAttr options;
  if (!plan.options.empty())
    options = b.getStrArrayAttr(llvm::to_vector_of<StringRef>(plan.options));
  // The family and params are provenance for reports and tuning records.
  SmallVector<NamedAttribute> params;
  for (auto &[key, value] : plan.params)
    params.push_back(b.getNamedAttr(key, b.getStringAttr(value)));
  func->setAttr(kCudaAttrName,
                CudaKernelAttr::get(ctx, plan.family, b.getArrayAttr(launches),
                                    options, b.getDictionaryAttr(params),
                                    plan.source));
  return candidate;
}
