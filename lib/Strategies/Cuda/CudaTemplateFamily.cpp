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

SmallVector<StringRef> cudatpl::rankTemplateFamilies(const ProblemView &view,
                                                     bool allowTf32) {
  SmallVector<StringRef> order;
  auto consider = [&](StringRef family) {
    if (!llvm::is_contained(order, family))
      order.push_back(family);
  };
  if (view.isSoftmax) {
    // Online (max and sum in one pass) or one walk per pass over the row:
    // the search measures both. Long contiguous rows start with the walks
    // (on the H200, rows of 24576 kept in shared memory: 22.8 us against
    // the online kernel's 25.0 us).
    bool longRows = view.softmax->inner == 1 && view.softmax->length > 8192;
    consider(longRows ? "fused_rows" : "softmax");
    consider(longRows ? "softmax" : "fused_rows");
    return order;
  }
  if (view.norm) {
    consider(view.norm->rms ? "rmsnorm" : "layernorm");
    return order;
  }
  if (view.fused && !view.fused->reductions.empty()) {
    consider("fused_rows");
    return order;
  }
  if (view.opClass == OpClass::Pooling ||
      (view.convolution && view.convolution->depthwise)) {
    // A window per output and no reuse across outputs: depthwise is a
    // contraction batched over channels with n = 1, where a GEMM tile would
    // be mostly waste.
    consider("direct");
    consider("reduce_col");
    return order;
  }
  if (view.contraction) {
    const ContractionView &c = *view.contraction;
    // Matrix-vector shapes are bandwidth-bound: a reduction per output
    // reads each matrix element once without wasting a tile.
    bool skinny = std::min(c.m, c.n) < 16;
    if (skinny) {
      consider(view.reduction && view.reduction->innerContiguous
                   ? "reduce_row"
                   : "reduce_col");
    }
    // The embedded kernels first for f32 (they decline other types), but
    // not where k is shallower than two of their smallest slices (bk = 8):
    // their cp.async pipeline then has nothing to overlap and the problem
    // is bound by C's traffic, where gemm's small tiles win
    // (matmul_small_k, k = 4, on the H200: 24.8 us for gemm, 70.4 us with
    // gemm_f32 ranked first).
    bool shallowK = c.k < kGemmKernelMinPipelinedK;
    // A convolution computed directly: no implicit-GEMM address decoding,
    // and short k (few channels, small filters) costs nothing to pipeline;
    // with output rows narrower than a warp, after the GEMM kernels.
    if (hasWideConvRows(view))
      consider("conv");
    // Plain tf32 tensor cores, where the user allows them, do a third of
    // 3xTF32's MMAs.
    if (allowTf32 && c.aKind == ElementKind::F32 && !shallowK)
      consider("gemm_tc");
    if (!shallowK) {
      consider("gemm_3xtf32");
      consider("gemm_f32");
    }
    if (isSlidingWindowContraction(view))
      consider("conv");
    // wgmma before WMMA: on chips other than sm_90a it offers nothing.
    consider("gemm_wgmma");
    consider("gemm_tc");
    consider("gemm");
    if (!skinny) {
      consider("reduce_row");
      consider("reduce_col");
    }
    consider("gemm_3xtf32");
    consider("gemm_f32");
  }
  if (view.reduction) {
    // A masked reduction that is a prefix scan (cumsum): O(L) instead of
    // O(L^2) per row; the scan family declines every other reduction.
    consider("scan");
    if (view.reduction->innerContiguous) {
      consider("reduce_row");
      consider("reduce_col");
    } else {
      consider("reduce_col");
      consider("reduce_row");
    }
  }
  consider("elementwise");
  consider("direct");
  return order;
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
  const CudaTemplateFamily *f = lookupTemplateFamily(family);
  if (!f) {
    whyNot = unknownFamily(family);
    return failure();
  }
  if (failed(f->checkView(view, /*allowTf32=*/true, whyNot)))
    return failure();
  return f->generate(view, params, whyNot);
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
  SmallVector<StringRef> order =
      rankTemplateFamilies(*view, problem.getOptions().allowTf32);
  const auto *it = llvm::find(order, name);
  if (it == order.end())
    return std::nullopt;
  return unsigned(it - order.begin());
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
  for (const CudaKernelPlan::Launch &l : plan.launches)
    launches.push_back(LaunchAttr::get(ctx, b.getDenseI64ArrayAttr(l.block),
                                       b.getDenseI64ArrayAttr(l.grid), l.kernel,
                                       l.sharedBytes));
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
