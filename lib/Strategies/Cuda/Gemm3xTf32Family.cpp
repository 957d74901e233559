//===- Gemm3xTf32Family.cpp - fp32-accurate tensor cores (gemm_3xtf32) ----===//
//
// The 3xTF32 kernel of lib/Strategies/Kernels/Gemm3xTf32.cuh on any f32
// contraction: each operand splits into a TF32 part and a TF32 residual, three
// mma.sync products per pair, each BK slice accumulated in the tensor cores
// and added to fp32 accumulators, which keeps the error within the f32 rule
// (the evaluator checks every candidate against the f64 reference all the
// same). Addressing, launch and split-K as in gemm_f32 (GemmF32Family.cpp):
// affine copies for strided operands, decoded addresses otherwise.
//
//===----------------------------------------------------------------------===//

#include "GemmCommon.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {
class Gemm3xTf32Family : public GemmKernelFamily {
public:
  Gemm3xTf32Family()
      : GemmKernelFamily("gemm_3xtf32", getFields(), getDefaults(),
                         "stark_gemm_3xtf32", "gemm3xTf32Block",
                         getGemm3xTf32KernelText(), kPipelined3xTf32,
                         kShallow3xTf32) {}

private:
  static ArrayRef<ParamField<GemmKernelParams>> getFields() {
    using P = GemmKernelParams;
    static const ParamField<P> fields[] = {
        {"bm", &P::bm},          {"bn", &P::bn},         {"bk", &P::bk},
        {"wm", &P::wm},          {"wn", &P::wn},         {"stages", &P::stages},
        {"group_m", &P::groupM}, {"split_k", &P::splitK}};
    return fields;
  }

  /// No thread tiles, one block per SM as far as registers go.
  static GemmKernelParams getDefaults() {
    GemmKernelParams p;
    p.bm = 128, p.bn = 128, p.bk = 32, p.wm = 64, p.wn = 32, p.stages = 4;
    p.groupM = 8, p.minBlocks = 1;
    return p;
  }

  /// The configurations measured best on the H200 (bench/results/
  /// gemm-kernels-2026-12-01-h200.md).
  std::vector<GemmKernelParams> getConfigs() const override {
    static const std::array<int64_t, 6> configs[] = {
        {128, 128, 32, 64, 32, 4}, {128, 128, 32, 64, 32, 3},
        {128, 128, 32, 32, 64, 3}, {128, 64, 32, 64, 32, 3},
        {64, 128, 32, 32, 64, 4},  {64, 64, 32, 32, 32, 4},
        {64, 64, 32, 32, 32, 3},   {64, 32, 32, 32, 16, 4},
        {32, 32, 32, 16, 16, 4}};
    return makeStructs<GemmKernelParams, 6>(
        getDefaults(), getFields(), {"bm", "bn", "bk", "wm", "wn", "stages"},
        configs);
  }

  FailureOr<GemmKernelShape> getShape(const GemmKernelAddressing &addr,
                                      const GemmKernelParams &p,
                                      std::string &whyNot) const override {
    if (p.bm <= 0 || p.bn <= 0 || p.bk <= 0 || p.wm <= 0 || p.wn <= 0 ||
        p.wm % 16 || p.wn % 8 || p.bk % 8 || p.bm % p.wm || p.bn % p.wn) {
      whyNot = "wm must be a multiple of 16 and wn of 8 dividing bm and bn, "
               "bk a multiple of 8";
      return failure();
    }
    if (p.stages < 2 || p.stages > 8 || p.groupM < 1) {
      whyNot = "stages in [2, 8], group_m >= 1";
      return failure();
    }
    FailureOr<GemmKernelShape> shape =
        getWarpTiledShape(addr, p, true, true, whyNot);
    if (failed(shape))
      return failure();
    GemmKernelShape &s = *shape;
    // The kernel's TileCopy keeps at most 21 copies per thread.
    int64_t perCopy = s.vec ? 4 : 1;
    if (ceilDiv(p.bm * p.bk / perCopy, s.threads) > 21 ||
        ceilDiv(p.bn * p.bk / perCopy, s.threads) > 21) {
      whyNot = "more than 21 tile copies per thread";
      return failure();
    }
    bool ta = addr.transposeA, tb = addr.transposeB;
    int64_t stage = (ta ? p.bk * (p.bm + 8) : p.bm * (p.bk + 4)) +
                    (tb ? p.bn * (p.bk + 4) : p.bk * (p.bn + 8));
    s.sharedBytes = p.stages * stage * 4;
    // Tensor-core and fp32 accumulators, split fragments, addressing.
    int64_t mi = p.wm / 16, ni = p.wn / 8;
    s.registers = 2 * mi * ni * 4 + 8 * mi + 4 * ni + 40;
    return shape;
  }

  std::string getConfigType(const GemmKernelParams &p) const override {
    return llvm::formatv("Tf32Config<{0}, {1}, {2}, {3}, {4}, {5}>", p.bm, p.bn,
                         p.bk, p.wm, p.wn, p.stages);
  }

  double getReuse(const GemmKernelParams &p) const override {
    return double(p.wm * p.wn) / double(p.wm + p.wn) / 16.0;
  }
};
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createGemm3xTf32Family() {
  return std::make_unique<Gemm3xTf32Family>();
}
