//===- CudaSchedules.cpp - Transform-dialect schedules for the GPU --------===//

#include "stark/Strategies/CudaSchedules.h"
#include "CudaSchedulesInternal.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Strategies/CpuStrategies.h"
#include "stark/Strategies/TransformScript.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudaschedule;

int64_t CudaSchedule::get(StringRef name) const {
  auto it = params.find(name.str());
  return it == params.end() ? 0 : it->second;
}

std::map<std::string, std::string> CudaSchedule::toParams() const {
  std::map<std::string, std::string> out;
  for (const auto &[name, value] : params)
    out[name] = std::to_string(value);
  return out;
}

std::string CudaSchedule::describe() const {
  std::string text = family;
  for (const auto &[name, value] : params)
    text += llvm::formatv(" {0}={1}", name, value).str();
  return text;
}

ArrayRef<StringRef> mlir::stark::getCudaScheduleFamilies() {
  static const StringRef families[] = {kMatmul, kElementwise, kReduce};
  return families;
}

void mlir::stark::registerCudaScheduleDialects(DialectRegistry &registry) {
  registerCpuStrategyDialects(registry);
  registry.insert<gpu::GPUDialect>();
  gpu::registerTransformDialectExtension(registry);
}

//===----------------------------------------------------------------------===//
// The op and its shape
//===----------------------------------------------------------------------===//

FailureOr<OpShape> cudaschedule::analyzeOp(ModuleOp problem,
                                           std::string &whyNot) {
  SmallVector<Operation *> ops = getProblemOps(problem);
  auto found =
      ops.size() == 1 ? dyn_cast<linalg::LinalgOp>(ops[0]) : linalg::LinalgOp();
  if (!found) {
    whyNot = "the problem must hold exactly one linalg op";
    return failure();
  }
  OpShape shape;
  shape.op = found;
  if (!found.hasPureBufferSemantics()) {
    whyNot = "the op must work on memrefs";
    return failure();
  }
  if (found.hasDynamicShape()) {
    whyNot = "dynamic shapes";
    return failure();
  }
  if (!found.hasOnlyProjectedPermutations()) {
    whyNot = "indexing maps that are not projected permutations (convolution "
             "or pooling windows)";
    return failure();
  }
  shape.ranges = found.getStaticLoopRanges();
  if (shape.ranges.empty()) {
    whyNot = "a zero-dimensional op has nothing to tile";
    return failure();
  }
  for (utils::IteratorType t : found.getIteratorTypesArray())
    shape.reduced.push_back(t == utils::IteratorType::reduction);
  int64_t widest = 8;
  for (Value operand : found->getOperands()) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!element.isIntOrFloat()) {
      whyNot = "operands of element type other than integer or float";
      return failure();
    }
    widest = std::max<int64_t>(widest, element.getIntOrFloatBitWidth());
  }
  shape.elementBytes = std::max<int64_t>(1, widest / 8);
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(found);
  // Mixed precision (f16 inputs, f32 accumulator) does not become an fma
  // contraction yet; those stay with the CUDA C++ templates.
  bool sameElementTypes =
      llvm::all_equal(llvm::map_range(found->getOperandTypes(), [](Type t) {
        return getElementTypeOrSelf(t);
      }));
  shape.isContraction = linalg::isaContractionOpInterface(found);
  if (linalg::isaContractionOpInterface(found) && succeeded(dims) &&
      dims->m.size() == 1 && dims->n.size() == 1 && dims->k.size() == 1 &&
      dims->batch.empty() && sameElementTypes) {
    shape.m = dims->m[0];
    shape.n = dims->n[0];
    shape.k = dims->k[0];
    if (!dims->batch.empty())
      shape.batch = dims->batch[0];
  }
  return shape;
}

std::string cudaschedule::whyFamilyDoesNotApply(StringRef family,
                                                const OpShape &shape) {
  bool anyReduced = llvm::is_contained(shape.reduced, true);
  bool anyParallel = llvm::is_contained(shape.reduced, false);
  if (family == kMatmul)
    return shape.m ? ""
                   : "not a contraction with one m, n and k loop, no batch "
                     "loop and one element type";
  if (family == kElementwise)
    return anyReduced ? "the op reduces" : "";
  if (family == kReduce) {
    if (!anyReduced)
      return "the op does not reduce";
    if (!anyParallel)
      return "a full reduction has no parallel loop to give the threads";
    if (shape.isContraction)
      return "contractions take td-matmul or the CUDA C++ templates";
    if (shape.op.getNumDpsInits() != 1)
      return "reductions with several outputs";
    if (llvm::count(shape.reduced, false) > 1)
      return "several parallel loops: the per-thread accumulator stays a "
             "vector of several dimensions, which the NVVM lowering does "
             "not convert";
    return "";
  }
  return ("unknown schedule family '" + family + "'").str();
}

//===----------------------------------------------------------------------===//
// Enumeration
//===----------------------------------------------------------------------===//

std::vector<CudaSchedule> mlir::stark::enumerateCudaSchedules(
    ModuleOp problem, const HardwareProfile &profile, std::string &whyNot) {
  std::vector<CudaSchedule> schedules;
  FailureOr<OpShape> shape = analyzeOp(problem, whyNot);
  if (failed(shape))
    return schedules;
  const OpShape &s = *shape;
  std::set<std::string> seen;
  // Enough to refine around the best guess without flooding the search.
  constexpr size_t kPerFamily = 24;
  std::map<std::string, size_t> perFamily;
  auto add = [&](CudaSchedule c) {
    if (perFamily[c.family] >= kPerFamily)
      return;
    std::string error;
    if (failed(buildScript(s, c, &profile, error)))
      return;
    if (seen.insert(c.describe()).second) {
      ++perFamily[c.family];
      schedules.push_back(std::move(c));
    }
  };
  // Threads per block worth launching: whole warps, enough of them.
  auto goodThreads = [](int64_t t) { return t >= 64 && t % 32 == 0; };
  std::vector<std::string> reasons;
  for (StringRef family : getCudaScheduleFamilies()) {
    std::string why = whyFamilyDoesNotApply(family, s);
    if (!why.empty()) {
      reasons.push_back((family + ": " + why).str());
      continue;
    }
    size_t before = schedules.size();
    if (family == kMatmul) {
      int64_t M = s.ranges[*s.m], N = s.ranges[*s.n], K = s.ranges[*s.k];
      const std::array<int64_t, 2> blocks[] = {
          {128, 128}, {64, 64}, {128, 64}, {64, 128}, {32, 32}};
      const std::array<int64_t, 2> threads[] = {{8, 8}, {4, 4}, {8, 4}, {4, 8}};
      for (int64_t promote : {1, 0})
        for (auto [wm, wn] : blocks)
          for (auto [wtm, wtn] : threads)
            for (int64_t wk : {16, 32, 8}) {
              CudaSchedule c;
              c.family = family.str();
              int64_t bm = getDividingTile(M, wm), bn = getDividingTile(N, wn),
                      bk = getDividingTile(K, wk);
              int64_t tm = getDividingTile(bm, wtm),
                      tn = getDividingTile(bn, wtn);
              if (!goodThreads((bm / tm) * (bn / tn)))
                continue;
              c.params = {{"bm", bm},          {"bn", bn},
                          {"bk", bk},          {"tm", tm},
                          {"tn", tn},          {"ku", getDividingTile(bk, 4)},
                          {"promote", promote}};
              add(c);
            }
    } else if (family == kElementwise) {
      unsigned inner = s.ranges.size() - 1;
      for (int64_t vec : {4, 2, 1})
        for (auto [wx, wy] : {std::pair<int64_t, int64_t>{64, 4},
                              {256, 1},
                              {32, 8},
                              {128, 2}}) {
          CudaSchedule c;
          c.family = family.str();
          int64_t v = pow2Divisor(s.ranges[inner], vec);
          int64_t tx = getDividingTile(s.ranges[inner] / v, wx);
          int64_t ty =
              inner == 0 ? 1 : getDividingTile(s.ranges[inner - 1], wy);
          if (!goodThreads(tx * ty) && tx * ty < s.ranges[inner] / v)
            continue;
          c.params = {{"tx", tx}, {"ty", ty}, {"vec", v}};
          add(c);
        }
    } else if (family == kReduce) {
      SmallVector<unsigned> mapped, walked;
      splitParallelLoops(s, mapped, walked);
      int64_t rows = s.ranges[mapped.front()];
      int64_t reducedExtent = 1;
      for (unsigned i = 0; i < s.ranges.size(); ++i)
        if (s.reduced[i])
          reducedExtent = s.ranges[i];
      for (int64_t threads : {128, 256, 64, 32})
        for (int64_t vec : {4, 1}) {
          CudaSchedule c;
          c.family = family.str();
          c.params = {{"threads", getDividingTile(rows, threads)},
                      {"vec", pow2Divisor(reducedExtent, vec)}};
          add(c);
        }
    }
    if (schedules.size() == before)
      reasons.push_back(
          (family + ": no parameters fit the op's loops and the profile")
              .str());
  }
  if (schedules.empty())
    whyNot = llvm::join(reasons, "; ");
  return schedules;
}

//===----------------------------------------------------------------------===//
// Application
//===----------------------------------------------------------------------===//

/// Shared buffers allocated inside a launch become 16-byte aligned slices
/// of the launch's dynamic shared memory. (Workgroup attributions would do,
/// but their arrays are only aligned to their element type, which rules out
/// 16-byte vector accesses.)
static LogicalResult allocsToDynamicSharedMemory(ModuleOp module,
                                                 std::string &error) {
  DenseMap<Operation *, SmallVector<memref::AllocOp>> byLaunch;
  SmallVector<gpu::LaunchOp> launches;
  WalkResult walk = module->walk([&](memref::AllocOp alloc) {
    if (!gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(alloc.getType()))
      return WalkResult::advance();
    auto launch = alloc->getParentOfType<gpu::LaunchOp>();
    if (!launch || !alloc.getType().hasStaticShape() ||
        !alloc.getType().getLayout().isIdentity()) {
      error = "a shared buffer outside a launch, of dynamic size or with a "
              "layout";
      return WalkResult::interrupt();
    }
    if (!byLaunch.count(launch))
      launches.push_back(launch);
    byLaunch[launch].push_back(alloc);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (gpu::LaunchOp launch : launches) {
    OpBuilder b(launch.getContext());
    b.setInsertionPointToStart(&launch.getBody().front());
    Location loc = launch.getLoc();
    auto space = gpu::AddressSpaceAttr::get(launch.getContext(),
                                            gpu::AddressSpace::Workgroup);
    auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                     MemRefLayoutAttrInterface(), space);
    Value base = gpu::DynamicSharedMemoryOp::create(b, loc, bytesType);
    int64_t offset = 0;
    for (memref::AllocOp alloc : byLaunch[launch]) {
      MemRefType type = alloc.getType();
      int64_t bytes =
          type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
      b.setInsertionPoint(alloc);
      Value shift = arith::ConstantIndexOp::create(b, alloc.getLoc(), offset);
      Value view = memref::ViewOp::create(b, alloc.getLoc(), type, base, shift,
                                          ValueRange());
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.getResult().replaceAllUsesWith(view);
      alloc->erase();
      offset += llvm::alignTo(bytes, 16);
    }
    b.setInsertionPoint(launch);
    Value size = arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset);
    launch.getDynamicSharedMemorySizeMutable().assign(size);
  }
  return success();
}

/// A number every value of `value` is a multiple of (1 when unknown).
static int64_t knownDivisor(Value value, unsigned depth = 0) {
  if (depth > 8)
    return 1;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c == 0 ? (int64_t(1) << 30) : std::abs(*c);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (arg == loop.getInductionVar())
        return std::gcd(knownDivisor(loop.getLowerBound(), depth + 1),
                        knownDivisor(loop.getStep(), depth + 1));
    return 1;
  }
  Operation *def = value.getDefiningOp();
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    // Each operand is d * (an unknown integer): substitute and ask the
    // expression.
    AffineMap map = apply.getAffineMap();
    SmallVector<AffineExpr> dims, symbols;
    MLIRContext *ctx = apply.getContext();
    for (unsigned i = 0; i < map.getNumDims(); ++i)
      dims.push_back(getAffineDimExpr(i, ctx) *
                     knownDivisor(apply.getOperand(i), depth + 1));
    for (unsigned i = 0; i < map.getNumSymbols(); ++i)
      symbols.push_back(
          getAffineSymbolExpr(i, ctx) *
          knownDivisor(apply.getOperand(map.getNumDims() + i), depth + 1));
    AffineExpr e = map.getResult(0).replaceDimsAndSymbols(dims, symbols);
    return std::max<int64_t>(1, e.getLargestKnownDivisor());
  }
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return std::gcd(knownDivisor(add.getLhs(), depth + 1),
                    knownDivisor(add.getRhs(), depth + 1));
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return knownDivisor(mul.getLhs(), depth + 1) *
           knownDivisor(mul.getRhs(), depth + 1);
  return 1;
}

/// Byte alignment of the first element a 1-D vector access touches, given
/// buffers aligned to 16 bytes (device allocations are aligned to 256,
/// shared buffers are 16-byte aligned slices of dynamic shared memory).
static int64_t accessAlignment(MemRefType type, ValueRange indices) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return 0;
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  if (elementBytes == 0)
    return 0;
  int64_t divisor = offset == 0 ? (int64_t(1) << 30) : std::abs(offset);
  for (auto [stride, index] : llvm::zip(strides, indices))
    divisor = std::gcd(divisor, stride * knownDivisor(index));
  int64_t bytes = divisor >= (int64_t(1) << 30) ? 16 : divisor * elementBytes;
  int64_t align = 1;
  while (align < 16 && bytes % (align * 2) == 0)
    align *= 2;
  return align;
}

/// Vector loads and stores that the indices prove aligned say so: the NVPTX
/// backend only emits ld/st.v2 and .v4 for aligned accesses.
static void annotateVectorAlignment(ModuleOp module) {
  Builder b(module.getContext());
  auto annotate = [&](Operation *op, MemRefType type, ValueRange indices,
                      VectorType vector) {
    if (vector.getRank() != 1 || op->hasAttr("alignment"))
      return;
    int64_t align = accessAlignment(type, indices);
    int64_t vectorBytes =
        vector.getNumElements() * vector.getElementTypeBitWidth() / 8;
    align = std::min(align, vectorBytes);
    if (align * 8 > int64_t(vector.getElementTypeBitWidth()))
      op->setAttr("alignment", b.getI64IntegerAttr(align));
  };
  module->walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op))
      annotate(op, load.getMemRefType(), load.getIndices(),
               load.getVectorType());
    else if (auto store = dyn_cast<vector::StoreOp>(op))
      annotate(op, store.getMemRefType(), store.getIndices(),
               store.getVectorType());
  });
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::applyCudaSchedule(ModuleOp problem, const CudaSchedule &schedule,
                               std::string &error) {
  MLIRContext *ctx = problem->getContext();
  DialectRegistry registry;
  registerCudaScheduleDialects(registry);
  ctx->appendDialectRegistry(registry);

  FailureOr<OwningOpRef<ModuleOp>> script =
      buildCudaTransformScript(problem, schedule, error);
  if (failed(script))
    return failure();

  OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(problem->clone());
  if (failed(applyTransformScript(*candidate, **script, error)))
    return failure();
  if (failed(allocsToDynamicSharedMemory(*candidate, error)))
    return failure();
  annotateVectorAlignment(*candidate);
  bool leftOver = false;
  (*candidate)->walk([&](linalg::LinalgOp) { leftOver = true; });
  if (leftOver) {
    error = "the schedule left a linalg op that was not vectorised";
    return failure();
  }
  ErrorCollector errors(ctx);
  if (failed(verify(*candidate))) {
    error = "the scheduled module does not verify: " + errors.getText();
    return failure();
  }

  // The schedule travels with the candidate, for the report.
  Builder b(ctx);
  SmallVector<NamedAttribute> params;
  for (const auto &[name, value] : schedule.params)
    params.push_back(b.getNamedAttr(name, b.getI64IntegerAttr(value)));
  auto record =
      ScheduleAttr::get(ctx, schedule.family, b.getDictionaryAttr(params),
                        printTransformScript(**script));
  (*candidate)->walk([&](func::FuncOp func) {
    if (!func.isExternal())
      func->setAttr(kScheduleAttrName, record);
  });
  return candidate;
}
