//===- GemmF32Family.cpp - SIMT fp32 GEMM over GemmF32.cuh (gemm_f32) -----===//
//
// The warp-tiled SIMT kernel of lib/Strategies/Kernels/GemmF32.cuh on any f32
// contraction: full fp32 products and sums, a multi-stage cp.async pipeline,
// the output tiles rasterised in groups of rows and the batch in grid.y.
// Strided operands take the kernel's affine copy path (16-byte copies where
// the strides allow); other addressing (convolutions as implicit GEMM, folded
// batch dimensions) goes through the decoded a_off / b_off / c_off. The
// candidate calling convention has no scratch memory, so there is no split-K:
// each block owns its output tile and adds it to C.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
struct F32Params {
  int64_t bm = 128, bn = 256, bk = 8, wm = 32, wn = 128, tm = 8, tn = 16;
  int64_t stages = 4, groupM = 8, minBlocks = 1;
};

struct F32Shape {
  int64_t threads = 0, sharedBytes = 0, registers = 0;
  bool vec = false, affine = false;
};
} // namespace

/// Copies per thread of an OUTER x INNER tile (the kernel's TileCopy keeps
/// at most 21).
static int64_t copiesPerThread(int64_t outer, int64_t inner, bool vec,
                               int64_t threads) {
  return ceilDiv(outer * inner / (vec ? 4 : 1), threads);
}

static FailureOr<F32Shape> shapeOf(const ProblemView &view,
                                   const GemmKernelAddressing &addr,
                                   const F32Params &p, std::string &whyNot) {
  if (p.bm <= 0 || p.bn <= 0 || p.bk <= 0 || p.wm <= 0 || p.wn <= 0 ||
      p.tm <= 0 || p.tn <= 0 || p.tm % 4 || p.tn % 4 || p.bm % p.wm ||
      p.bn % p.wn || p.wm % p.tm || p.wn % p.tn ||
      (p.wm / p.tm) * (p.wn / p.tn) != 32) {
    whyNot = "tm and tn must be multiples of 4, wm and wn divide bm and bn, "
             "and a warp tile must hold 32 thread tiles";
    return failure();
  }
  if (p.stages < 2 || p.stages > 8 || p.groupM < 1 || p.minBlocks < 1 ||
      p.minBlocks > 32) {
    whyNot = "stages in [2, 8], group_m >= 1, min_blocks in [1, 32]";
    return failure();
  }
  F32Shape s;
  s.threads = (p.bm / p.wm) * (p.bn / p.wn) * 32;
  if (s.threads > 1024) {
    whyNot = llvm::formatv("{0} threads per block (limit 1024)", s.threads);
    return failure();
  }
  s.affine = addr.strided && gemmKernelTileOffsetsFit(addr, p.bm, p.bn, p.bk);
  s.vec = s.affine &&
          isGemmKernelVectorisable(addr, addr.transposeA, !addr.transposeB);
  if (copiesPerThread(p.bk, p.bm, s.vec && addr.transposeA, s.threads) > 21 ||
      copiesPerThread(p.bk, p.bn, s.vec && !addr.transposeB, s.threads) > 21) {
    whyNot = "more than 21 tile copies per thread";
    return failure();
  }
  s.sharedBytes = p.stages * p.bk * (p.bm + 4 + p.bn + 4) * 4;
  // Accumulators, one k step of both operands, addressing.
  s.registers = p.tm * p.tn + p.tm + p.tn + 40;
  (void)view;
  return s;
}

static FailureOr<CudaKernelPlan>
generate(const ProblemView &view, const F32Params &p, std::string &whyNot) {
  if (failed(checkGemmKernelApplies(view, "gemm_f32", whyNot)))
    return failure();
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  FailureOr<F32Shape> shape = shapeOf(view, addr, p, whyNot);
  if (failed(shape))
    return failure();
  const ContractionView &c = *view.contraction;
  std::string config = llvm::formatv(
      "SimtConfig<{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}>", p.bm, p.bn,
      p.bk, p.wm, p.wn, p.tm, p.tn, p.stages, p.minBlocks);
  CudaKernelPlan plan;
  plan.source = emitGemmKernelSource(
      view, addr, shape->affine, getGemmF32KernelText(), config,
      "gemmF32SimtBlock", "stark_gemm_f32", shape->vec, p.minBlocks, p.groupM);
  plan.family = "gemm_f32";
  CudaKernelPlan::Launch launch;
  launch.kernel = "stark_gemm_f32";
  launch.grid = {ceilDiv(c.m, p.bm) * ceilDiv(c.n, p.bn), c.batch, 1};
  launch.block = {shape->threads, 1, 1};
  launch.sharedBytes = shape->sharedBytes;
  plan.launches.push_back(launch);
  plan.sharedBytesPerBlock = shape->sharedBytes;
  plan.threadsPerBlock = shape->threads;
  setParam(plan, "bm", p.bm);
  setParam(plan, "bn", p.bn);
  setParam(plan, "bk", p.bk);
  setParam(plan, "wm", p.wm);
  setParam(plan, "wn", p.wn);
  setParam(plan, "tm", p.tm);
  setParam(plan, "tn", p.tn);
  setParam(plan, "stages", p.stages);
  setParam(plan, "group_m", p.groupM);
  setParam(plan, "min_blocks", p.minBlocks);
  return plan;
}

/// The configurations measured best on the H200 (bench/results/
/// gemm-kernels-2026-12-01-h200.md), large tiles first; the score below
/// reorders them for the problem.
static std::vector<F32Params> enumerate(const ProblemView &view,
                                        const HardwareProfile &profile) {
  static const int64_t configs[][9] = {
      // bm, bn, bk, wm, wn, tm, tn, stages, min_blocks
      {128, 256, 8, 32, 128, 8, 16, 4, 1}, {128, 256, 8, 32, 128, 8, 16, 3, 1},
      {256, 128, 8, 64, 64, 16, 8, 4, 1},  {128, 256, 16, 32, 128, 8, 16, 3, 1},
      {128, 128, 16, 32, 64, 8, 8, 3, 1},  {128, 64, 16, 64, 32, 8, 8, 3, 2},
      {64, 64, 16, 32, 32, 8, 4, 4, 4},    {64, 64, 16, 32, 32, 8, 4, 3, 4},
      {64, 32, 16, 32, 16, 4, 4, 4, 4},    {32, 32, 16, 32, 16, 4, 4, 4, 4}};
  std::vector<F32Params> out;
  if (!hasAsyncCopy(profile))
    return out;
  const ContractionView &c = *view.contraction;
  GemmKernelAddressing addr = getGemmKernelAddressing(view);
  int64_t maxShared = profile.sharedMemoryPerBlock > 0
                          ? profile.sharedMemoryPerBlock
                          : 48 * 1024;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t regsPerSm =
      profile.registersPerUnit > 0 ? profile.registersPerUnit : 65536;
  struct Scored {
    F32Params p;
    double score;
  };
  std::vector<Scored> scored;
  for (auto &cfg : configs) {
    F32Params p;
    p.bm = cfg[0], p.bn = cfg[1], p.bk = cfg[2], p.wm = cfg[3], p.wn = cfg[4];
    p.tm = cfg[5], p.tn = cfg[6], p.stages = cfg[7], p.minBlocks = cfg[8];
    std::string ignored;
    FailureOr<F32Shape> s = shapeOf(view, addr, p, ignored);
    if (failed(s) || s->sharedBytes > maxShared || s->threads > maxThreads ||
        s->registers > 255 ||
        s->registers * s->threads * p.minBlocks > regsPerSm)
      continue;
    double reuse = double(p.tm * p.tn) / double(p.tm + p.tn) / 4.0;
    scored.push_back(
        {p, gemmKernelTileScore(c, p.bm, p.bn, p.bk, reuse, profile)});
  }
  std::stable_sort(
      scored.begin(), scored.end(),
      [](const Scored &a, const Scored &b) { return a.score > b.score; });
  for (const Scored &s : scored)
    out.push_back(s.p);
  return out;
}

namespace {
class GemmF32Family : public CudaTemplateFamily {
public:
  GemmF32Family() : CudaTemplateFamily("gemm_f32") {}

  LogicalResult check(const ProblemView &view, bool allowTf32,
                      std::string &whyNot) const override {
    return checkGemmKernelApplies(view, "gemm_f32", whyNot);
  }

  std::vector<TemplateParams> enumerate(const ProblemView &view,
                                        const HardwareProfile &profile,
                                        bool allowTf32) const override {
    std::vector<TemplateParams> out;
    for (const F32Params &p : ::enumerate(view, profile))
      out.push_back({{"bm", p.bm},
                     {"bn", p.bn},
                     {"bk", p.bk},
                     {"wm", p.wm},
                     {"wn", p.wn},
                     {"tm", p.tm},
                     {"tn", p.tn},
                     {"stages", p.stages},
                     {"group_m", p.groupM},
                     {"min_blocks", p.minBlocks}});
    return out;
  }

  FailureOr<CudaKernelPlan> generate(const ProblemView &view,
                                     const TemplateParams &params,
                                     std::string &whyNot) const override {
    F32Params p;
    if (failed(takeParams(params,
                          {{"bm", &p.bm},
                           {"bn", &p.bn},
                           {"bk", &p.bk},
                           {"wm", &p.wm},
                           {"wn", &p.wn},
                           {"tm", &p.tm},
                           {"tn", &p.tn},
                           {"stages", &p.stages},
                           {"group_m", &p.groupM},
                           {"min_blocks", &p.minBlocks}},
                          whyNot)))
      return failure();
    return ::generate(view, p, whyNot);
  }
};
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createGemmF32Family() {
  return std::make_unique<GemmF32Family>();
}
