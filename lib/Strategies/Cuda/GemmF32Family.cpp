//===- GemmF32Family.cpp - SIMT fp32 GEMM over GemmF32.cuh (gemm_f32) -----===//
//
// The warp-tiled SIMT kernel of lib/Strategies/Kernels/GemmF32.cuh on any f32
// contraction: full fp32 products and sums, a multi-stage cp.async pipeline,
// the output tiles rasterised in groups of rows and the batch in grid.y.
// Strided operands take the kernel's affine copy path (16-byte copies where
// the strides allow); other addressing (convolutions as implicit GEMM, folded
// batch dimensions) goes through the decoded a_off / b_off / c_off. Where
// the output has too few tiles for the SMs, split_k slices k over separate
// blocks whose partial sums a second launch adds to C (GemmCommon.cpp).
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

/// Copies per thread of an OUTER x INNER tile (the kernel's TileCopy keeps
/// at most 21).
static int64_t copiesPerThread(int64_t outer, int64_t inner, bool vec,
                               int64_t threads) {
  return ceilDiv(outer * inner / (vec ? 4 : 1), threads);
}

namespace {
class GemmF32Family : public GemmKernelFamily {
public:
  GemmF32Family()
      : GemmKernelFamily("gemm_f32", getFields(), getDefaults(),
                         "stark_gemm_f32", "gemmF32SimtBlock",
                         getGemmF32KernelText(), kPipelinedF32, kShallowF32,
                         kDeepConvF32) {}

private:
  static ArrayRef<ParamField<GemmKernelParams>> getFields() {
    using P = GemmKernelParams;
    static const ParamField<P> fields[] = {
        {"bm", &P::bm},          {"bn", &P::bn},
        {"bk", &P::bk},          {"wm", &P::wm},
        {"wn", &P::wn},          {"tm", &P::tm},
        {"tn", &P::tn},          {"stages", &P::stages},
        {"group_m", &P::groupM}, {"min_blocks", &P::minBlocks},
        {"split_k", &P::splitK}};
    return fields;
  }

  static GemmKernelParams getDefaults() {
    GemmKernelParams p;
    p.bm = 128, p.bn = 256, p.bk = 8, p.wm = 32, p.wn = 128, p.tm = 8;
    p.tn = 16, p.stages = 4, p.groupM = 8, p.minBlocks = 1;
    return p;
  }

  /// The configurations measured best on the H200 (bench/results/
  /// gemm-kernels-2026-12-01-h200.md), large tiles first.
  std::vector<GemmKernelParams> getConfigs() const override {
    static const std::array<int64_t, 9> configs[] = {
        {128, 256, 8, 32, 128, 8, 16, 4, 1},
        {128, 256, 8, 32, 128, 8, 16, 3, 1},
        {256, 128, 8, 64, 64, 16, 8, 4, 1},
        {128, 256, 16, 32, 128, 8, 16, 3, 1},
        {128, 128, 16, 32, 64, 8, 8, 3, 1},
        {128, 64, 16, 64, 32, 8, 8, 3, 2},
        {64, 64, 16, 32, 32, 8, 4, 4, 4},
        {64, 64, 16, 32, 32, 8, 4, 3, 4},
        {64, 32, 16, 32, 16, 4, 4, 4, 4},
        {32, 32, 16, 32, 16, 4, 4, 4, 4}};
    return makeStructs<GemmKernelParams, 9>(
        getDefaults(), getFields(),
        {"bm", "bn", "bk", "wm", "wn", "tm", "tn", "stages", "min_blocks"},
        configs);
  }

  FailureOr<GemmKernelShape> getShape(const GemmKernelAddressing &addr,
                                      const GemmKernelParams &p,
                                      std::string &whyNot) const override {
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
    FailureOr<GemmKernelShape> shape =
        getWarpTiledShape(addr, p, addr.transposeA, !addr.transposeB, whyNot);
    if (failed(shape))
      return failure();
    GemmKernelShape &s = *shape;
    if (copiesPerThread(p.bk, p.bm, s.vec && addr.transposeA, s.threads) > 21 ||
        copiesPerThread(p.bk, p.bn, s.vec && !addr.transposeB, s.threads) >
            21) {
      whyNot = "more than 21 tile copies per thread";
      return failure();
    }
    s.sharedBytes = p.stages * p.bk * (p.bm + 4 + p.bn + 4) * 4;
    // Accumulators, one k step of both operands, addressing.
    s.registers = p.tm * p.tn + p.tm + p.tn + 40;
    return shape;
  }

  std::string getConfigType(const GemmKernelParams &p) const override {
    return llvm::formatv(
        "SimtConfig<{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}>", p.bm, p.bn,
        p.bk, p.wm, p.wn, p.tm, p.tn, p.stages, p.minBlocks);
  }

  double getReuse(const GemmKernelParams &p) const override {
    return double(p.tm * p.tn) / double(p.tm + p.tn) / 4.0;
  }
};
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createGemmF32Family() {
  return std::make_unique<GemmF32Family>();
}
