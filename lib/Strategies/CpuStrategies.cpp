//===- CpuStrategies.cpp - Transform-dialect schedules for the host -------===//

#include "stark/Strategies/CpuStrategies.h"
#include "Cpu/CpuFusedGroup.h"
#include "Cpu/CpuVectorAccumulators.h"
#include "stark/Analysis/InitFill.h"
#include "stark/Analysis/ProblemView.h"
#include "stark/Dialect/StarkDialect.h"
#include "stark/Strategies/TransformScript.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/TransformOps/BufferizationTransformOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/TransformOps/FuncTransformOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Linalg/TransformOps/LinalgTransformOps.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/TransformOps/MemRefTransformOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/TransformOps/SCFTransformOps.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/TransformOps/VectorTransformOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

static std::string listParam(ArrayRef<int64_t> v) {
  return "[" +
         llvm::join(
             llvm::map_range(v, [](int64_t x) { return std::to_string(x); }),
             ",") +
         "]";
}

bool CpuSchedule::onTensors() const {
  return family == kCpuWindowVectorize || family == kCpuSoftmaxRows ||
         family == kCpuFusedRows || fuseGroup || fuseInitFill;
}

std::map<std::string, std::string> CpuSchedule::toParams() const {
  std::map<std::string, std::string> params{
      {"cache_tiles", listParam(cacheTiles)},
      {"register_tiles", listParam(registerTiles)},
      {"threads", std::to_string(threads)},
      {"contraction_lowering", contractionLowering},
      {"reduction_lowering", reductionLowering}};
  // Only where set, so the points of single-op problems keep their keys.
  if (fuseGroup)
    params["fused_group"] = "1";
  return params;
}

std::string CpuSchedule::describe() const {
  std::string text;
  if (family == kCpuSoftmaxRows)
    text = llvm::formatv("{0} rows fused per step", listParam(registerTiles));
  else if (family == kCpuFusedRows)
    text = llvm::formatv("tiles {0} of the chain's last op, its producers "
                         "fused per tile",
                         listParam(registerTiles));
  else if (family == kCpuTileLoops)
    text =
        llvm::formatv("cache tiles {0}, scalar loops", listParam(cacheTiles));
  else
    text = llvm::formatv("cache tiles {0}, vector tiles {1}",
                         listParam(cacheTiles), listParam(registerTiles));
  if (family == kCpuWindowVectorize)
    text += ", decomposed to 1-D windows";
  if (fuseGroup)
    text += ", on the chain fused into one op";
  if (threads > 1 && (family == kCpuSoftmaxRows || family == kCpuFusedRows))
    text += llvm::formatv(", {0} threads over the blocks of rows", threads);
  else if (threads > 1)
    text += llvm::formatv(", {0} threads over parallel tiles {1}", threads,
                          listParam(threadTiles));
  return text;
}

/// The single op a problem computes: a linalg structured op or
/// linalg.softmax, or the contraction of a fill + contraction problem (the
/// fill then goes to `initFill`).
static Operation *findProblemOp(ModuleOp problem,
                                linalg::FillOp *initFill = nullptr) {
  SmallVector<Operation *> ops = getProblemOps(problem);
  if (ops.size() == 2 && getOwnedInitFill(ops[1]) == ops[0]) {
    if (initFill)
      *initFill = cast<linalg::FillOp>(ops[0]);
    ops.erase(ops.begin());
  }
  if (ops.size() != 1 || !isa<linalg::LinalgOp, linalg::SoftmaxOp>(ops[0]))
    return nullptr;
  return ops[0];
}

static unsigned getNumLoops(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getNumLoops();
  return cast<linalg::SoftmaxOp>(op).getInputOperandType().getRank();
}

namespace {
/// What each loop of a window op (convolution or pooling) is, for the ops
/// `transform.structured.decompose` turns into a 1-D form (or that already
/// are one): N batch, H output row, W output column, F output channel,
/// C input channel (reduced), D channel carried through (depthwise,
/// pooling), R filter row, S filter column.
struct WindowLayout {
  StringRef op;
  StringRef loops;
};
const WindowLayout kWindowLayouts[] = {
    {"linalg.conv_2d_nhwc_hwcf", "NHWFRSC"},
    {"linalg.conv_2d_nchw_fchw", "NFHWCRS"},
    {"linalg.conv_2d", "HWRS"},
    {"linalg.depthwise_conv_2d_nhwc_hwc", "NHWDRS"},
    {"linalg.pooling_nhwc_sum", "NHWDRS"},
    {"linalg.pooling_nhwc_max", "NHWDRS"},
    {"linalg.pooling_nhwc_max_unsigned", "NHWDRS"},
    {"linalg.pooling_nhwc_min", "NHWDRS"},
    {"linalg.pooling_nhwc_min_unsigned", "NHWDRS"},
    {"linalg.pooling_nchw_sum", "NDHWRS"},
    {"linalg.pooling_nchw_max", "NDHWRS"},
    {"linalg.conv_1d_nwc_wcf", "NWFSC"},
    {"linalg.conv_1d_ncw_fcw", "NFWCS"},
    {"linalg.conv_1d", "WS"},
    {"linalg.depthwise_conv_1d_nwc_wc", "NWDS"},
    {"linalg.pooling_nwc_sum", "NWDS"},
    {"linalg.pooling_nwc_max", "NWDS"},
    {"linalg.pooling_nwc_max_unsigned", "NWDS"},
    {"linalg.pooling_nwc_min", "NWDS"},
    {"linalg.pooling_nwc_min_unsigned", "NWDS"},
    {"linalg.pooling_ncw_sum", "NDWS"},
    {"linalg.pooling_ncw_max", "NDWS"},
};
} // namespace

static std::optional<StringRef> getWindowLayout(Operation *op) {
  for (const WindowLayout &l : kWindowLayouts)
    if (op->getName().getStringRef() == l.op)
      return l.loops;
  return std::nullopt;
}

/// Splits one parallel loop of `s` among `threads`: the outermost one with
/// at least `threads` tiles of the next level, cut into as few `scf.forall`
/// steps as give every thread one (block-distributed by the cpu target).
static bool addThreadTiles(CpuSchedule &s, ArrayRef<int64_t> ranges,
                           ArrayRef<utils::IteratorType> iterators,
                           int64_t threads) {
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (iterators[d] != utils::IteratorType::parallel)
      continue;
    int64_t unit = s.cacheTiles[d]      ? s.cacheTiles[d]
                   : s.registerTiles[d] ? s.registerTiles[d]
                                        : ranges[d];
    int64_t tiles = ranges[d] / unit;
    if (tiles < threads)
      continue;
    int64_t perStep = tiles / threads;
    while (tiles % perStep)
      --perStep;
    s.threadTiles.assign(ranges.size(), 0);
    s.threadTiles[d] = unit * perStep;
    s.threads = threads;
    return true;
  }
  return false;
}

/// Loop ranges of a problem op that stay worth a thread each (smaller ones
/// are dominated by waking the threads).
static constexpr int64_t kPointsPerThread = 1 << 16;

/// The whole row is one vector in the row schedules: longer rows would make
/// vectors too large to compile in reasonable time.
static constexpr int64_t kMaxRowVector = 8192;

static int64_t getNumPoints(Operation *op) {
  int64_t points = 1;
  for (int64_t r : cast<linalg::LinalgOp>(op).getStaticLoopRanges())
    points *= r;
  return points;
}

/// Lists each schedule with its threaded twin where `makeTwin` (given a copy
/// of the schedule) makes one: the twin first when `threadedFirst` (large
/// problems), after the schedule otherwise.
static std::vector<CpuSchedule>
interleaveThreadedTwins(ArrayRef<CpuSchedule> schedules, bool threadedFirst,
                        function_ref<bool(CpuSchedule &threaded)> makeTwin) {
  std::vector<CpuSchedule> all;
  for (const CpuSchedule &s : schedules) {
    CpuSchedule threaded = s;
    bool split = makeTwin(threaded);
    if (split && threadedFirst)
      all.push_back(threaded);
    all.push_back(s);
    if (split && !threadedFirst)
      all.push_back(threaded);
  }
  return all;
}

/// cpu-fused-rows for a chain that stays several ops once fused on tensors
/// (`left`, its last op the sink): the sink's outermost loops that span the
/// rows the chain's reductions produce are tiled by blocks of rows, and
/// each block computes every producer of its slice, vectorised whole.
static std::vector<CpuSchedule>
enumerateFusedRowsSchedules(ArrayRef<Operation *> left, int64_t hostThreads,
                            std::string &whyNot) {
  std::vector<CpuSchedule> schedules;
  Operation *sink = left.back();
  for (Operation *op : left.drop_back())
    for (Operation *user : op->getUsers())
      if (isa<bufferization::MaterializeInDestinationOp>(user)) {
        whyNot = "the fused chain writes outputs from more than one op";
        return schedules;
      }
  // Rows: the number of values each reduction of the chain produces; all
  // reductions must produce as many.
  int64_t rows = 0;
  for (Operation *op : left) {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (linalgOp.getNumReductionLoops() == 0)
      continue;
    int64_t produced = 1;
    for (auto [range, it] : llvm::zip(linalgOp.getStaticLoopRanges(),
                                      linalgOp.getIteratorTypesArray()))
      if (it == utils::IteratorType::parallel)
        produced *= range;
    if (rows && rows != produced) {
      whyNot = "the fused chain's reductions produce different numbers of "
               "rows";
      return schedules;
    }
    rows = produced;
  }
  if (!rows) {
    whyNot = "the fused chain has no reduction to block by rows";
    return schedules;
  }
  auto sinkOp = cast<linalg::LinalgOp>(sink);
  SmallVector<int64_t> ranges = sinkOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = sinkOp.getIteratorTypesArray();
  int64_t covered = 1;
  int64_t last = -1;
  for (int64_t d = 0; d < int64_t(ranges.size()) && covered < rows; ++d) {
    if (iterators[d] != utils::IteratorType::parallel)
      break;
    covered *= ranges[d];
    last = d;
  }
  if (covered != rows || last < 0) {
    whyNot = "the outer loops of the fused chain's last op do not span its "
             "rows";
    return schedules;
  }
  int64_t longest = 0;
  for (Operation *op : left)
    longest = std::max(longest, (getNumPoints(op) + rows - 1) / rows);
  for (int64_t block : {1, 2, 4, 8}) {
    int64_t tile = getDividingTile(ranges[last], block);
    if (tile != block && block > 1)
      continue;
    if (tile * longest > kMaxRowVector) {
      if (schedules.empty())
        whyNot = llvm::formatv("rows of {0} elements are longer than the {1} "
                               "the host schedule keeps in vectors",
                               longest, kMaxRowVector)
                     .str();
      continue;
    }
    CpuSchedule s;
    s.family = kCpuFusedRows;
    s.cacheTiles.assign(ranges.size(), 0);
    s.registerTiles.assign(ranges.size(), 0);
    for (int64_t d = 0; d < last; ++d)
      s.registerTiles[d] = 1;
    s.registerTiles[last] = tile;
    s.reductionLowering = "innerreduction";
    schedules.push_back(s);
  }
  if (!schedules.empty())
    whyNot.clear();
  // The loop over blocks of rows is the parallel level: each schedule with
  // a threaded twin where the chain is large enough and there are blocks
  // for every thread; threaded first for large chains.
  int64_t points = 0;
  for (Operation *op : left)
    points += getNumPoints(op);
  bool threadedFirst = points >= kPointsPerThread * hostThreads;
  return interleaveThreadedTwins(
      schedules, threadedFirst, [&](CpuSchedule &threaded) {
        int64_t blocks = rows / threaded.registerTiles[last];
        threaded.threads = hostThreads;
        return hostThreads > 1 && points >= kPointsPerThread &&
               blocks >= hostThreads;
      });
}

/// Adds `s` unless a schedule with the same family, tiles and lowerings is
/// listed already: different tile choices can clamp to the same sizes.
static void addUniqueSchedule(std::vector<CpuSchedule> &schedules,
                              const CpuSchedule &s) {
  for (const CpuSchedule &existing : schedules)
    if (existing.family == s.family && existing.cacheTiles == s.cacheTiles &&
        existing.registerTiles == s.registerTiles &&
        existing.contractionLowering == s.contractionLowering &&
        existing.reductionLowering == s.reductionLowering)
      return;
  schedules.push_back(s);
}

/// Rejects ops no schedule can tile: dynamic shapes, no loops.
static LogicalResult checkTileable(Operation *root, std::string &whyNot) {
  for (Type t : root->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped && !shaped.hasStaticShape()) {
      whyNot = "dynamic shapes";
      return failure();
    }
  if (getNumLoops(root) == 0) {
    whyNot = "a zero-dimensional op has nothing to tile";
    return failure();
  }
  return success();
}

/// Elements of the op's first operand in one host vector (at least 128
/// bits), the unit the vector tiles are sized in.
static int64_t getVectorLanes(Operation *root, const HardwareProfile &host) {
  Type elementType = getElementTypeOrSelf(root->getOperand(0).getType());
  int64_t elementBits =
      elementType.isIntOrFloat() ? elementType.getIntOrFloatBitWidth() : 32;
  return std::max<int64_t>(1, std::max<int64_t>(host.simdBits, 128) /
                                  std::max<int64_t>(elementBits, 8));
}

/// The host's vector registers; a profile that does not say has 32 with
/// 512-bit vectors, else 16.
static int64_t getSimdRegisters(const HardwareProfile &host) {
  if (host.simdRegisters > 0)
    return host.simdRegisters;
  return host.simdBits >= 512 ? 32 : 16;
}

/// cpu-softmax-rows: blocks of whole rows, each row one vector; also gives
/// the softmax's loop ranges and iterators for the threaded twins.
static LogicalResult addSoftmaxSchedules(
    linalg::SoftmaxOp softmax, std::vector<CpuSchedule> &schedules,
    SmallVectorImpl<int64_t> &ranges,
    SmallVectorImpl<utils::IteratorType> &iterators, std::string &whyNot) {
  unsigned numLoops = getNumLoops(softmax);
  ranges.assign(softmax.getInputOperandType().getShape().begin(),
                softmax.getInputOperandType().getShape().end());
  int64_t dim = softmax.getDimension();
  iterators.assign(numLoops, utils::IteratorType::parallel);
  iterators[dim] = utils::IteratorType::reduction;
  if (ranges[dim] > kMaxRowVector) {
    whyNot = llvm::formatv("softmax rows of {0} elements are longer than "
                           "the {1} the host schedule keeps in vectors",
                           ranges[dim], kMaxRowVector)
                 .str();
    return failure();
  }
  int lastOuter = -1;
  for (int d = numLoops - 1; d >= 0 && lastOuter < 0; --d)
    if (d != dim)
      lastOuter = d;
  for (int64_t rows : {1, 2, 4, 8}) {
    if (rows * ranges[dim] > kMaxRowVector)
      continue;
    CpuSchedule s;
    s.family = kCpuSoftmaxRows;
    s.cacheTiles.assign(numLoops, 0);
    s.registerTiles.assign(numLoops, 1);
    s.registerTiles[dim] = 0;
    if (lastOuter >= 0)
      s.registerTiles[lastOuter] = getDividingTile(ranges[lastOuter], rows);
    s.reductionLowering = "innerreduction";
    addUniqueSchedule(schedules, s);
  }
  return success();
}

/// cpu-tile-vectorize for a contraction with one m, n and k loop: register
/// tile mr x nr (nr a multiple of the vector width), cache tiles sized so
/// the B panel (kc x nc) and A block stay in cache.
static void addContractionSchedules(
    const linalg::ContractionDimensions &contraction, ArrayRef<int64_t> ranges,
    int64_t lanes, int64_t registers, std::vector<CpuSchedule> &schedules) {
  unsigned numLoops = ranges.size();
  unsigned m = contraction.m[0], n = contraction.n[0], k = contraction.k[0];
  // Register tiles mr x (nrVectors vectors), wider rows first (per k step
  // an mr x 2 tile loads 2 vectors of B and mr elements of A for 2 mr
  // multiply-adds). Tiles whose accumulators take more than half of the
  // vector registers come last: the rest hold B's vectors and A's
  // broadcasts, and 8 x 16 f32 accumulators fill AVX2's sixteen (256 x
  // 1024 x 512 on two cores: 4.80 ms, against 3.73 ms for 4 x 16).
  SmallVector<std::pair<int64_t, int64_t>> registerTiles = {
      {8, 2}, {4, 2}, {8, 1}, {4, 1}};
  llvm::stable_sort(registerTiles, [&](auto a, auto b) {
    return a.first * a.second <= registers / 2 &&
           b.first * b.second > registers / 2;
  });
  for (auto [mr, nrVectors] : registerTiles)
    for (auto [mc, nc, kc] :
         {std::tuple<int64_t, int64_t, int64_t>{64, 256, 128},
          {128, 128, 256},
          {32, 512, 64}}) {
      CpuSchedule s;
      s.cacheTiles.assign(numLoops, 0);
      s.registerTiles.assign(numLoops, 0);
      for (unsigned b : contraction.batch) {
        s.cacheTiles[b] = 1;
        s.registerTiles[b] = 1;
      }
      s.cacheTiles[m] = getDividingTile(ranges[m], mc);
      s.cacheTiles[n] = getDividingTile(ranges[n], nc);
      s.cacheTiles[k] = getDividingTile(ranges[k], kc);
      s.registerTiles[m] = getDividingTile(s.cacheTiles[m], mr);
      s.registerTiles[n] = getDividingTile(s.cacheTiles[n], lanes * nrVectors);
      s.registerTiles[k] = 1;
      addUniqueSchedule(schedules, s);
    }
}

/// cpu-tile-vectorize for ops with projected-permutation maps: innermost
/// loop vectorised; outer parallel loops blocked by `rows` so several rows
/// share the vector work (innerparallel reductions).
static void addRowVectorSchedules(ArrayRef<int64_t> ranges,
                                  ArrayRef<utils::IteratorType> iterators,
                                  int64_t lanes,
                                  std::vector<CpuSchedule> &schedules) {
  unsigned numLoops = ranges.size();
  bool hasReduction = llvm::any_of(iterators, [](utils::IteratorType t) {
    return t == utils::IteratorType::reduction;
  });
  for (int64_t widthVectors : {4, 2, 8, 1})
    for (int64_t rows : {1, 4, 8}) {
      CpuSchedule s;
      s.cacheTiles.assign(numLoops, 0);
      s.registerTiles.assign(numLoops, 1);
      unsigned innermost = numLoops - 1;
      s.registerTiles[innermost] =
          getDividingTile(ranges[innermost], lanes * widthVectors);
      if (numLoops >= 2) {
        // The next loop out, parallel or not, takes the row blocking.
        s.registerTiles[innermost - 1] =
            getDividingTile(ranges[innermost - 1], rows);
      }
      for (unsigned i = 0; i < numLoops; ++i)
        if (ranges[i] == 1)
          s.registerTiles[i] = 1;
      s.reductionLowering =
          hasReduction && rows == 1 ? "innerreduction" : "innerparallel";
      addUniqueSchedule(schedules, s);
    }
}

/// The register tile of one loop of a window op, by its role in `window`
/// (see WindowLayout).
static int64_t getWindowRegisterTile(char role, int64_t range, int64_t columns,
                                     int64_t channels, int64_t inputBlock) {
  switch (role) {
  case 'N':
  case 'H':
  case 'R':
    return 1;
  case 'W':
    return getDividingTile(range, columns);
  case 'F':
  case 'D':
    return getDividingTile(range, channels);
  case 'C':
    return getDividingTile(range, inputBlock);
  default:
    return 0;
  }
}

/// cpu-window-vectorize: output columns x output channels in registers (a
/// few accumulators per column), input channels reduced in blocks, whole
/// filter columns in the 1-D window op.
static void addWindowSchedules(StringRef window, ArrayRef<int64_t> ranges,
                               int64_t lanes,
                               std::vector<CpuSchedule> &schedules) {
  unsigned numLoops = ranges.size();
  for (auto [columns, channelVectors, inputBlock] :
       {std::tuple<int64_t, int64_t, int64_t>{4, 2, 8},
        {8, 1, 8},
        {4, 1, 16},
        {8, 2, 4},
        {2, 4, 8}}) {
    CpuSchedule s;
    s.family = kCpuWindowVectorize;
    s.decomposeWindows = window.contains('H');
    s.cacheTiles.assign(numLoops, 0);
    s.registerTiles.assign(numLoops, 0);
    for (auto [d, role] : llvm::enumerate(window))
      s.registerTiles[d] = getWindowRegisterTile(
          role, ranges[d], columns, lanes * channelVectors, inputBlock);
    addUniqueSchedule(schedules, s);
  }
}

/// cpu-tile-loops, for what nothing vectorises: tile the outermost parallel
/// loop for the threads (one tile per step of a few) and lower the rest as
/// loops.
static void addTileLoopsSchedule(ArrayRef<int64_t> ranges,
                                 ArrayRef<utils::IteratorType> iterators,
                                 std::vector<CpuSchedule> &schedules) {
  unsigned numLoops = ranges.size();
  CpuSchedule s;
  s.family = kCpuTileLoops;
  s.cacheTiles.assign(numLoops, 0);
  s.registerTiles.assign(numLoops, 0);
  for (unsigned d = 0; d < numLoops; ++d)
    if (iterators[d] == utils::IteratorType::parallel && ranges[d] > 1) {
      s.cacheTiles[d] = getDividingTile(ranges[d], (ranges[d] + 7) / 8);
      break;
    }
  addUniqueSchedule(schedules, s);
}

/// The schedules of a linalg op, by the first shape that fits it: a plain
/// contraction, projected-permutation maps, a window op; else loops.
static void addLinalgSchedules(linalg::LinalgOp op, ArrayRef<int64_t> ranges,
                               ArrayRef<utils::IteratorType> iterators,
                               int64_t lanes, int64_t registers,
                               std::vector<CpuSchedule> &schedules) {
  FailureOr<linalg::ContractionDimensions> contraction =
      linalg::inferContractionDims(op);
  std::optional<StringRef> window = getWindowLayout(op);
  if (linalg::isaContractionOpInterface(op) && succeeded(contraction) &&
      contraction->m.size() == 1 && contraction->n.size() == 1 &&
      contraction->k.size() == 1)
    addContractionSchedules(*contraction, ranges, lanes, registers, schedules);
  else if (op.hasOnlyProjectedPermutations())
    addRowVectorSchedules(ranges, iterators, lanes, schedules);
  else if (window)
    addWindowSchedules(*window, ranges, lanes, schedules);
  if (schedules.empty())
    addTileLoopsSchedule(ranges, iterators, schedules);
}

/// Every schedule with a multithreaded twin where the op is large enough
/// and one of its parallel loops splits; threaded first for large ops.
static std::vector<CpuSchedule>
addThreadedTwins(ArrayRef<CpuSchedule> schedules, ArrayRef<int64_t> ranges,
                 ArrayRef<utils::IteratorType> iterators, int64_t hostThreads,
                 bool fuseInitFill) {
  int64_t points = 1;
  for (int64_t r : ranges)
    points *= r;
  bool threadedFirst = points >= kPointsPerThread * hostThreads;
  return interleaveThreadedTwins(
      schedules, threadedFirst, [&](CpuSchedule &threaded) {
        bool split = hostThreads > 1 && points >= kPointsPerThread &&
                     addThreadTiles(threaded, ranges, iterators, hostThreads);
        threaded.fuseInitFill = fuseInitFill;
        return split;
      });
}

std::vector<CpuSchedule> mlir::stark::enumerateCpuSchedules(
    ModuleOp problem, const HardwareProfile &host, std::string &whyNot) {
  std::vector<CpuSchedule> schedules;
  int64_t hostThreads = std::clamp<int64_t>(host.numComputeUnits, 1, 64);
  linalg::FillOp initFill;
  Operation *root = findProblemOp(problem, &initFill);
  // A fused chain is scheduled on its tensor form: as the one op it fuses
  // into, or by blocks of rows.
  OwningOpRef<ModuleOp> fusedForm;
  bool fuseGroup = false;
  if (!root && isFusedGroupProblem(problem)) {
    fusedForm = cast<ModuleOp>(problem->clone());
    std::string error;
    FailureOr<SmallVector<Operation *>> left =
        fuseGroupOnTensors(*fusedForm, error);
    if (failed(left)) {
      whyNot = "fused chain: " + error;
      return schedules;
    }
    if (left->size() != 1)
      return enumerateFusedRowsSchedules(*left, hostThreads, whyNot);
    root = left->front();
    fuseGroup = true;
  }
  if (!root) {
    whyNot = "the problem must hold exactly one linalg op";
    return schedules;
  }
  if (failed(checkTileable(root, whyNot)))
    return schedules;

  SmallVector<int64_t> ranges;
  SmallVector<utils::IteratorType> iterators;
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(root)) {
    if (failed(
            addSoftmaxSchedules(softmax, schedules, ranges, iterators, whyNot)))
      return schedules;
  } else {
    auto op = cast<linalg::LinalgOp>(root);
    ranges = op.getStaticLoopRanges();
    iterators = op.getIteratorTypesArray();
    addLinalgSchedules(op, ranges, iterators, getVectorLanes(root, host),
                       getSimdRegisters(host), schedules);
  }

  std::vector<CpuSchedule> all = addThreadedTwins(schedules, ranges, iterators,
                                                  hostThreads, bool(initFill));
  for (CpuSchedule &s : all)
    s.fuseGroup = fuseGroup;
  if (all.empty() && whyNot.empty())
    whyNot = "no host schedule applies";
  return all;
}

/// Rewrites the problem's op on memrefs into the same op on tensors read
/// from the arguments, its results written back into the output arguments:
/// the form decompositions and fusion work on. `initFill`, when given, is
/// the fill of the op's init, rewritten too: the op's init becomes the
/// fill's tensor result.
static LogicalResult convertToTensorForm(Operation *op, linalg::FillOp initFill,
                                         std::string &error) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  if (!dps) {
    error = "the op is not in destination-passing style";
    return failure();
  }
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> operands;
  SmallVector<Type> resultTypes;
  SmallVector<Value> destinations;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type) {
      operands.push_back(v);
      continue;
    }
    auto tensorType =
        RankedTensorType::get(type.getShape(), type.getElementType());
    bool isInit = dps.isDpsInit(&operand);
    Value tensor = bufferization::ToTensorOp::create(
        b, loc, tensorType, v, /*restrict=*/true, /*writable=*/isInit);
    if (isInit && initFill && v == initFill.getOutputs()[0])
      tensor = linalg::FillOp::create(b, initFill.getLoc(),
                                      initFill.getInputs()[0], tensor)
                   .getResult(0);
    operands.push_back(tensor);
    if (isInit) {
      resultTypes.push_back(tensorType);
      destinations.push_back(v);
    }
  }
  Operation *tensorOp = mlir::clone(b, op, resultTypes, operands);
  for (auto [result, dest] : llvm::zip(tensorOp->getResults(), destinations))
    bufferization::MaterializeInDestinationOp::create(
        b, loc, /*result=*/Type(), result, dest, /*restrict=*/true,
        /*writable=*/true);
  op->erase();
  if (initFill)
    initFill->erase();
  return success();
}

/// The op `schedule` works on in `candidate` (a fused chain first made one
/// op on tensors), checked against the schedule's loops and family.
static FailureOr<Operation *> findScheduledOp(ModuleOp candidate,
                                              const CpuSchedule &schedule,
                                              bool fused, std::string &error) {
  Operation *op = nullptr;
  if (fused) {
    FailureOr<SmallVector<Operation *>> left =
        fuseGroupOnTensors(candidate, error);
    if (failed(left))
      return failure();
    if (schedule.fuseGroup && left->size() != 1) {
      error = "the fused chain does not fuse into one op";
      return failure();
    }
    op = left->back();
  } else {
    op = findProblemOp(candidate);
  }
  if (!op) {
    error = "the problem must hold exactly one linalg op";
    return failure();
  }
  unsigned numLoops = getNumLoops(op);
  if (schedule.cacheTiles.size() != numLoops ||
      schedule.registerTiles.size() != numLoops ||
      (!schedule.threadTiles.empty() &&
       schedule.threadTiles.size() != numLoops)) {
    error = llvm::formatv("the schedule has tile sizes for {0} loops, the "
                          "op has {1}",
                          schedule.registerTiles.size(), numLoops)
                .str();
    return failure();
  }
  if (schedule.family == kCpuSoftmaxRows) {
    if (!isa<linalg::SoftmaxOp>(op)) {
      error = "family " + schedule.family + " is for linalg.softmax";
      return failure();
    }
  } else if (!isa<linalg::LinalgOp>(op)) {
    error = "family " + schedule.family + " is for linalg structured ops";
    return failure();
  }
  return op;
}

/// What the cpu target cannot run, or would leak on every call, left in a
/// scheduled candidate; null when nothing is. A row block the vectoriser
/// did not take (a reduction into several outputs, such as an argmax)
/// stays a loop nest inside its block.
static Operation *findLeftover(ModuleOp candidate,
                               const CpuSchedule &schedule) {
  bool loopsLeft =
      schedule.family == kCpuTileLoops || schedule.family == kCpuFusedRows;
  Operation *leftover = nullptr;
  candidate->walk([&](Operation *nested) {
    auto alloc = dyn_cast<memref::AllocOp>(nested);
    if ((alloc && llvm::none_of(alloc->getUsers(),
                                [](Operation *user) {
                                  return isa<memref::DeallocOp>(user);
                                })) ||
        isa<linalg::SoftmaxOp>(nested) ||
        isa<tensor::TensorDialect, bufferization::BufferizationDialect>(
            nested->getDialect()) ||
        (!loopsLeft && isa<linalg::LinalgOp>(nested)))
      leftover = nested;
  });
  return leftover;
}

FailureOr<OwningOpRef<ModuleOp>>
mlir::stark::applyCpuSchedule(ModuleOp problem, const CpuSchedule &schedule,
                              std::string &error) {
  MLIRContext *ctx = problem->getContext();
  OwningOpRef<ModuleOp> candidate = cast<ModuleOp>(problem->clone());
  // A fused chain: its tensor form, on which the schedule works.
  bool fused = schedule.fuseGroup || schedule.family == kCpuFusedRows;
  FailureOr<Operation *> scheduled =
      findScheduledOp(*candidate, schedule, fused, error);
  if (failed(scheduled))
    return failure();
  Operation *op = *scheduled;

  FailureOr<OwningOpRef<ModuleOp>> script =
      buildCpuTransformScript(ctx, schedule, error);
  if (failed(script))
    return failure();
  if (schedule.family == kCpuFusedRows &&
      failed(tileAndFuseRows(op, schedule.registerTiles, error)))
    return failure();
  // The schedules tile one op; the fill of a fill + contraction problem
  // runs before it as plain loops (memory-bound, and a small part of it),
  // or inside the thread loop (fuseInitFill).
  linalg::FillOp initFill;
  if (!fused)
    findProblemOp(*candidate, &initFill);
  if (schedule.fuseInitFill && !initFill) {
    error = "the schedule fuses the output's fill, the problem has none";
    return failure();
  }
  if (initFill && !schedule.fuseInitFill) {
    IRRewriter rewriter(ctx);
    rewriter.setInsertionPoint(initFill);
    if (failed(linalg::linalgOpToLoops(rewriter, initFill))) {
      error = "cannot lower the output's fill to loops";
      return failure();
    }
    rewriter.eraseOp(initFill);
    initFill = nullptr;
  }
  // `op`, not a new look-up: with its fill lowered to loops, the problem
  // no longer reads as a fill + contraction.
  if (!fused && schedule.onTensors() &&
      failed(convertToTensorForm(op, initFill, error)))
    return failure();
  if (failed(applyTransformScript(*candidate, **script, error)))
    return failure();
  // A row reduction's running value: a vector of partial results, not a
  // horizontal reduction into a scalar at every step.
  keepVectorAccumulators(*candidate);
  // A temporary of a fused chain that stays a buffer in each row block (the
  // value beside an argmax's index) is freed where the block ends.
  if (schedule.family == kCpuFusedRows &&
      (*candidate)
          ->walk([](memref::AllocOp) { return WalkResult::interrupt(); })
          .wasInterrupted()) {
    PassManager dealloc(ctx);
    bufferization::buildBufferDeallocationPipeline(dealloc);
    if (failed(dealloc.run(*candidate))) {
      error = "cannot free the row blocks' temporaries";
      return failure();
    }
  }
  if (Operation *leftover = findLeftover(*candidate, schedule)) {
    error = ("the schedule leaves '" + leftover->getName().getStringRef() +
             "' in the candidate")
                .str();
    return failure();
  }
  if (schedule.threads > 1)
    (*candidate)
        ->setAttr(kCpuThreadsAttr, IntegerAttr::get(IntegerType::get(ctx, 64),
                                                    schedule.threads));
  return candidate;
}
