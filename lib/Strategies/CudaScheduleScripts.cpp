//===- CudaScheduleScripts.cpp - Transform scripts of the GPU schedules ---===//
//
// Each CUDA schedule family as the transform ops it applies: block tiles
// mapped to a new gpu.launch, thread tiles, shared-memory staging and the
// vectorisation and lowering every family ends with.
//
//===----------------------------------------------------------------------===//

#include "CudaSchedulesInternal.h"
#include "stark/Strategies/TransformScript.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudaschedule;

/// Mapping attributes of `count` nested loops, outermost first: the
/// innermost loop is x.
static ArrayAttr mapping(MLIRContext *ctx, unsigned count,
                         function_ref<Attribute(gpu::MappingId)> make) {
  static const gpu::MappingId dims[] = {
      gpu::MappingId::DimX, gpu::MappingId::DimY, gpu::MappingId::DimZ};
  SmallVector<Attribute> attrs;
  for (unsigned i = 0; i < count; ++i)
    attrs.push_back(make(dims[count - 1 - i]));
  return ArrayAttr::get(ctx, attrs);
}

static ArrayAttr blockMapping(MLIRContext *ctx, unsigned count) {
  return mapping(ctx, count, [&](gpu::MappingId id) -> Attribute {
    return gpu::GPUBlockMappingAttr::get(ctx, id);
  });
}

static ArrayAttr threadMapping(MLIRContext *ctx, unsigned count) {
  return mapping(ctx, count, [&](gpu::MappingId id) -> Attribute {
    return gpu::GPUThreadMappingAttr::get(ctx, id);
  });
}

/// Linear thread dimensions of `count` nested loops, outermost first.
static ArrayAttr linearThreadMapping(MLIRContext *ctx, unsigned count) {
  SmallVector<Attribute> attrs;
  for (unsigned i = 0; i < count; ++i)
    attrs.push_back(gpu::GPUThreadMappingAttr::get(
        ctx,
        gpu::MappingId(unsigned(gpu::MappingId::LinearDim0) + count - 1 - i)));
  return ArrayAttr::get(ctx, attrs);
}

static unsigned countNonZero(ArrayRef<int64_t> values) {
  return unsigned(llvm::count_if(values, [](int64_t v) { return v != 0; }));
}

static bool divides(int64_t tile, int64_t extent) {
  return tile > 0 && extent % tile == 0;
}

/// Matches the problem's op, tiles it to a block forall of `blockTiles`,
/// maps that to a new gpu.launch and returns the handle of the launch and of
/// the op inside it.
static std::pair<Value, Value> emitBlockLaunch(TransformScriptBuilder &w,
                                               ArrayRef<int64_t> blockTiles) {
  OpBuilder &b = w.getBuilder();
  Value op = w.matchLinalgOps(w.getRoot());
  Value grid =
      w.tileUsingForall(op, blockTiles,
                        blockMapping(b.getContext(), countNonZero(blockTiles)))
          .second;
  Value launch = transform::MapForallToBlocks::create(
      b, w.getLoc(), w.getAnyOpType(), grid, DenseI64ArrayAttr(),
      b.getUnitAttr());
  return {launch, w.matchLinalgOps(launch)};
}

/// Vectorises every linalg op, maps the thread foralls, keeps accumulators
/// in registers across the loops and lowers the vector ops to what the
/// NVVM lowering takes (1-D loads and stores, fma, reductions).
static void emitVectorizeAndMap(TransformScriptBuilder &w, Value launch,
                                ArrayRef<int64_t> blockDims,
                                int64_t unrollFactor) {
  OpBuilder &b = w.getBuilder();
  Location loc = w.getLoc();
  Type anyOp = w.getAnyOpType();
  MLIRContext *ctx = b.getContext();
  Value f = w.matchOps(w.getRoot(), {"func.func"});
  // Unit loops (a batch of one per block) leave the ops: accumulators are
  // then at most 2-D. The folding works on linalg.generic.
  transform::GeneralizeOp::create(b, loc, anyOp, w.matchLinalgOps(f));
  w.applyPatterns(f, [](OpBuilder &b, Location loc) {
    transform::ApplyFoldUnitExtentDimsViaSlicesPatternsOp::create(b, loc);
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
  transform::VectorizeOp::create(b, loc, w.matchLinalgOps(f), ValueRange(),
                                 DenseI64ArrayAttr(), UnitAttr(), UnitAttr(),
                                 UnitAttr(), DenseBoolArrayAttr());
  // Alone first: canonicalization would fold a unit-length reduction into
  // a mulf + addf before it becomes a contraction (and then an fma).
  w.applyPatterns(f, [](OpBuilder &b, Location loc) {
    transform::ApplyVectorReductionToContractPatternsOp::create(b, loc);
    transform::ApplyTransferPermutationPatternsOp::create(b, loc);
  });
  w.applyPatterns(f, [](OpBuilder &b, Location loc) {
    transform::ApplyFoldMemrefAliasOpsPatternsOp::create(b, loc);
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
  transform::MapNestedForallToThreads::create(b, loc, anyOp, launch,
                                              b.getDenseI64ArrayAttr(blockDims),
                                              BoolAttr(), IntegerAttr());
  w.applyPatterns(f, [](OpBuilder &b, Location loc) {
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
  w.applyCse(f);
  // Read-modify-write pairs of the output leave the loops: accumulators
  // live in registers. (Subviews were folded into the transfers above, so
  // the transfers address the function arguments.)
  transform::HoistRedundantVectorTransfersOp::create(b, loc, anyOp, f,
                                                     UnitAttr());
  if (unrollFactor > 1) {
    Value loop = w.matchOps(
        w.getRoot(), {"scf.for"},
        b.getDictionaryAttr(b.getNamedAttr("stark.unroll", b.getUnitAttr())));
    transform::LoopUnrollOp::create(b, loc, loop,
                                    b.getI64IntegerAttr(unrollFactor));
  }
  Value g = w.matchOps(w.getRoot(), {"func.func"});
  w.applyPatterns(g, [&](OpBuilder &b, Location loc) {
    transform::ApplyLowerContractionPatternsOp::create(
        b, loc,
        vector::VectorContractLoweringAttr::get(
            ctx, vector::VectorContractLowering::OuterProduct));
    transform::ApplyLowerMultiReductionPatternsOp::create(
        b, loc,
        vector::VectorMultiReductionLoweringAttr::get(
            ctx, vector::VectorMultiReductionLowering::InnerReduction));
    transform::ApplyTransferPermutationPatternsOp::create(b, loc);
    transform::ApplyLowerOuterProductPatternsOp::create(b, loc);
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
  w.applyPatterns(g, [](OpBuilder &b, Location loc) {
    transform::ApplyTransferToScfPatternsOp::create(
        b, loc, b.getI64IntegerAttr(1), b.getBoolAttr(true));
    transform::ApplyLowerTransferPatternsOp::create(b, loc,
                                                    b.getI64IntegerAttr(1));
    transform::ApplyCastAwayVectorLeadingOneDimPatternsOp::create(b, loc);
    transform::ApplyCanonicalizationPatternsOp::create(b, loc);
  });
  w.applyCse(g);
}

/// Largest power of two <= `want` dividing `extent`, at least 1.
int64_t cudaschedule::pow2Divisor(int64_t extent, int64_t want) {
  int64_t v = 1;
  while (v * 2 <= want && extent % (v * 2) == 0)
    v *= 2;
  return v;
}

/// Tile sizes and mapping of a cooperative copy of a `shape` tile by
/// `threads` threads: `vec` contiguous elements (fewer when the innermost
/// extent or the source row does not allow them), rows spread over the
/// remaining threads.
static SmallVector<int64_t> copyTiles(ArrayRef<int64_t> shape,
                                      int64_t sourceInner, int64_t threads,
                                      int64_t vec) {
  unsigned rank = shape.size();
  SmallVector<int64_t> tiles(rank, 1);
  int64_t inner = shape[rank - 1];
  int64_t v = pow2Divisor(std::gcd(inner, sourceInner), vec);
  while (inner / v > threads && inner % (v * 2) == 0)
    v *= 2;
  tiles[rank - 1] = v;
  if (rank >= 2) {
    int64_t colThreads = inner / v;
    int64_t rowThreads = std::max<int64_t>(1, threads / colThreads);
    int64_t rows = shape[rank - 2];
    int64_t used = 1;
    for (int64_t t = std::min(rows, rowThreads); t >= 1; --t)
      if (rows % t == 0) {
        used = t;
        break;
      }
    tiles[rank - 2] = rows / used;
  }
  return tiles;
}
static FailureOr<OwningOpRef<ModuleOp>>
buildMatmul(const OpShape &s, const CudaSchedule &sched,
            const HardwareProfile *profile, std::string &error) {
  int64_t bm = sched.get("bm"), bn = sched.get("bn"), bk = sched.get("bk"),
          tm = sched.get("tm"), tn = sched.get("tn"), ku = sched.get("ku");
  bool promote = sched.get("promote") != 0;
  unsigned m = *s.m, n = *s.n, k = *s.k;
  if (!divides(bm, s.ranges[m]) || !divides(bn, s.ranges[n]) ||
      !divides(bk, s.ranges[k]) || !divides(tm, bm) || !divides(tn, bn) ||
      !divides(ku, bk)) {
    error = llvm::formatv("tiles bm={0} bn={1} bk={2} tm={3} tn={4} ku={5} "
                          "must divide the loops {6}x{7}x{8} and each other",
                          bm, bn, bk, tm, tn, ku, s.ranges[m], s.ranges[n],
                          s.ranges[k])
                .str();
    return failure();
  }
  int64_t tx = bn / tn, ty = bm / tm;
  int64_t maxThreads = profile && profile->maxThreadsPerBlock
                           ? profile->maxThreadsPerBlock
                           : 1024;
  if (tx * ty > maxThreads) {
    error = llvm::formatv("{0} threads per block exceed the limit {1}", tx * ty,
                          maxThreads)
                .str();
    return failure();
  }
  if (promote && profile && profile->sharedMemoryPerBlock) {
    int64_t bytes = (bm + bn) * bk * s.elementBytes;
    if (bytes > profile->sharedMemoryPerBlock) {
      error = llvm::formatv("{0} bytes of shared memory exceed the limit {1}",
                            bytes, profile->sharedMemoryPerBlock)
                  .str();
      return failure();
    }
  }
  unsigned numLoops = s.ranges.size();
  SmallVector<int64_t> blockTiles(numLoops, 0), kTiles(numLoops, 0),
      threadTiles(numLoops, 0), regTiles(numLoops, 0), loopTile(numLoops, 0);
  if (s.batch)
    blockTiles[*s.batch] = 1;
  blockTiles[m] = bm;
  blockTiles[n] = bn;
  kTiles[k] = bk;
  threadTiles[m] = tm;
  threadTiles[n] = tn;
  regTiles[k] = ku;
  loopTile = blockTiles;
  loopTile[k] = bk;

  MLIRContext *ctx = s.op->getContext();
  TransformScriptBuilder w(ctx, /*consumesRoot=*/false);
  OpBuilder &b = w.getBuilder();
  Location loc = w.getLoc();
  auto [launch, op] = emitBlockLaunch(w, blockTiles);
  Value current = w.tileUsingFor(op, kTiles).first;
  if (promote)
    current = transform::PromoteOp::create(
        b, loc, w.getAnyOpType(), current, b.getI64ArrayAttr({0, 1}),
        /*use_full_tile_buffers=*/ArrayAttr(),
        /*use_full_tiles_by_default=*/UnitAttr(),
        /*use_original_subview_size=*/b.getUnitAttr(),
        /*use_alloca=*/UnitAttr(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup),
        /*mapping=*/ArrayAttr(), /*alignment=*/IntegerAttr());
  // Threads along n are x (consecutive threads, consecutive columns).
  current = w.tileUsingForall(
                 current, threadTiles,
                 ArrayAttr::get(ctx,
                                {
                                    gpu::GPUThreadMappingAttr::get(
                                        ctx, m < n ? gpu::MappingId::DimY
                                                   : gpu::MappingId::DimX),
                                    gpu::GPUThreadMappingAttr::get(
                                        ctx, m < n ? gpu::MappingId::DimX
                                                   : gpu::MappingId::DimY),
                                }))
                .first;
  SmallVector<Value> kLoops = w.tileUsingFor(current, regTiles).second;
  if (bk / ku > 1 && !kLoops.empty())
    transform::AnnotateOp::create(b, loc, kLoops.back(), "stark.unroll",
                                  Value());
  if (promote) {
    // One cooperative copy per staged operand, A first.
    auto copies = transform::SplitHandleOp::create(
        b, loc, w.matchOps(launch, {"linalg.copy"}), 2);
    for (auto [index, handle] : llvm::enumerate(copies.getResults())) {
      AffineMap map =
          s.op.getMatchingIndexingMap(s.op.getDpsInputOperand(unsigned(index)));
      auto type = cast<MemRefType>(
          s.op.getDpsInputOperand(unsigned(index))->get().getType());
      SmallVector<int64_t> tileShape;
      for (AffineExpr e : map.getResults())
        tileShape.push_back(loopTile[cast<AffineDimExpr>(e).getPosition()]);
      SmallVector<int64_t> tiles =
          copyTiles(tileShape, type.getShape().back(), tx * ty,
                    std::max<int64_t>(1, 16 / s.elementBytes));
      w.tileUsingForall(handle, tiles, linearThreadMapping(ctx, tiles.size()));
    }
  }
  emitVectorizeAndMap(w, launch, {tx, ty, 1}, bk / ku);
  return w.finish(error);
}

/// The loops a block forall maps (at most three, innermost first in
/// `mapped`) and the outer parallel loops each thread walks sequentially.
void cudaschedule::splitParallelLoops(const OpShape &s,
                                      SmallVector<unsigned> &mapped,
                                      SmallVector<unsigned> &walked) {
  for (int i = int(s.ranges.size()) - 1; i >= 0; --i) {
    if (s.reduced[i])
      continue;
    if (mapped.size() < 3)
      mapped.push_back(unsigned(i));
    else
      walked.push_back(unsigned(i));
  }
}

static FailureOr<OwningOpRef<ModuleOp>>
buildElementwise(const OpShape &s, const CudaSchedule &sched,
                 const HardwareProfile *profile, std::string &error) {
  int64_t tx = sched.get("tx"), ty = sched.get("ty"), vec = sched.get("vec");
  unsigned numLoops = s.ranges.size();
  unsigned inner = numLoops - 1;
  if (!divides(tx * vec, s.ranges[inner]) ||
      (numLoops >= 2 && !divides(ty, s.ranges[inner - 1])) ||
      (numLoops == 1 && ty != 1)) {
    error = llvm::formatv("tx*vec={0} and ty={1} must divide the two "
                          "innermost loops",
                          tx * vec, ty)
                .str();
    return failure();
  }
  int64_t maxThreads = profile && profile->maxThreadsPerBlock
                           ? profile->maxThreadsPerBlock
                           : 1024;
  if (tx * ty > maxThreads) {
    error = "too many threads per block";
    return failure();
  }
  SmallVector<unsigned> mapped, walked;
  splitParallelLoops(s, mapped, walked);
  SmallVector<int64_t> blockTiles(numLoops, 0), threadTiles(numLoops, 0),
      walkTiles(numLoops, 0);
  for (unsigned l : mapped)
    blockTiles[l] = 1;
  blockTiles[inner] = tx * vec;
  threadTiles[inner] = vec;
  if (numLoops >= 2) {
    blockTiles[inner - 1] = ty;
    threadTiles[inner - 1] = 1;
  }
  for (unsigned l : walked)
    walkTiles[l] = 1;

  TransformScriptBuilder w(s.op->getContext(), /*consumesRoot=*/false);
  auto [launch, op] = emitBlockLaunch(w, blockTiles);
  Value current = w.tileUsingForall(op, threadTiles,
                                    threadMapping(s.op->getContext(),
                                                  countNonZero(threadTiles)))
                      .first;
  w.tileUsingFor(current, walkTiles);
  emitVectorizeAndMap(w, launch, {tx, numLoops >= 2 ? ty : 1, 1}, 1);
  return w.finish(error);
}

static FailureOr<OwningOpRef<ModuleOp>>
buildReduce(const OpShape &s, const CudaSchedule &sched,
            const HardwareProfile *profile, std::string &error) {
  int64_t threads = sched.get("threads"), vec = sched.get("vec");
  unsigned numLoops = s.ranges.size();
  SmallVector<unsigned> mapped, walked;
  splitParallelLoops(s, mapped, walked);
  unsigned innerParallel = mapped.front();
  int reducedInner = -1;
  for (unsigned i = 0; i < numLoops; ++i)
    if (s.reduced[i])
      reducedInner = int(i);
  if (!divides(threads, s.ranges[innerParallel]) ||
      !divides(vec, s.ranges[reducedInner])) {
    error = llvm::formatv("threads={0} must divide the innermost parallel "
                          "loop ({1}) and vec={2} the innermost reduced one "
                          "({3})",
                          threads, s.ranges[innerParallel], vec,
                          s.ranges[reducedInner])
                .str();
    return failure();
  }
  int64_t maxThreads = profile && profile->maxThreadsPerBlock
                           ? profile->maxThreadsPerBlock
                           : 1024;
  if (threads > maxThreads) {
    error = "too many threads per block";
    return failure();
  }
  SmallVector<int64_t> blockTiles(numLoops, 0), threadTiles(numLoops, 0),
      regTiles(numLoops, 0);
  for (unsigned l : mapped)
    blockTiles[l] = 1;
  blockTiles[innerParallel] = threads;
  threadTiles[innerParallel] = 1;
  for (unsigned l : walked)
    regTiles[l] = 1;
  for (unsigned i = 0; i < numLoops; ++i)
    if (s.reduced[i])
      regTiles[i] = 1;
  regTiles[reducedInner] = vec;

  TransformScriptBuilder w(s.op->getContext(), /*consumesRoot=*/false);
  auto [launch, op] = emitBlockLaunch(w, blockTiles);
  Value current =
      w.tileUsingForall(op, threadTiles, threadMapping(s.op->getContext(), 1))
          .first;
  w.tileUsingFor(current, regTiles);
  emitVectorizeAndMap(w, launch, {threads, 1, 1}, 1);
  return w.finish(error);
}

FailureOr<OwningOpRef<ModuleOp>>
cudaschedule::buildScript(const OpShape &shape, const CudaSchedule &schedule,
                          const HardwareProfile *profile, std::string &error) {
  std::string why = whyFamilyDoesNotApply(schedule.family, shape);
  if (!why.empty()) {
    error = schedule.family + ": " + why;
    return failure();
  }
  MLIRContext *ctx = shape.op->getContext();
  DialectRegistry registry;
  registerCudaScheduleDialects(registry);
  ctx->appendDialectRegistry(registry);
  ctx->loadDialect<transform::TransformDialect, gpu::GPUDialect,
                   vector::VectorDialect>();
  if (schedule.family == kMatmul)
    return buildMatmul(shape, schedule, profile, error);
  if (schedule.family == kElementwise)
    return buildElementwise(shape, schedule, profile, error);
  return buildReduce(shape, schedule, profile, error);
}

FailureOr<OwningOpRef<ModuleOp>> mlir::stark::buildCudaTransformScript(
    ModuleOp problem, const CudaSchedule &schedule, std::string &error) {
  FailureOr<OpShape> shape = analyzeOp(problem, error);
  if (failed(shape))
    return failure();
  return buildScript(*shape, schedule, nullptr, error);
}

FailureOr<std::string> mlir::stark::renderCudaTransformScript(
    ModuleOp problem, const CudaSchedule &schedule, std::string &error) {
  FailureOr<OwningOpRef<ModuleOp>> script =
      buildCudaTransformScript(problem, schedule, error);
  if (failed(script))
    return failure();
  return printTransformScript(**script);
}
