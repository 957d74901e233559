//===- GemmCommon.cpp - What the two GEMM families share ------------------===//
//
// Both GEMM families work on the ContractionView of a problem, so the same
// kernels serve matmul, batch_matmul, transposed operands, matvec shapes and
// convolutions (implicit GEMM: the address of an operand element is a linear
// function of the decoded m / n / k coordinates, whatever the layout).
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

/// Largest vector width (up to `maxVec`, a power of two) for loads of
/// `access` that run along the innermost loop of `group`: that loop has unit
/// stride, its range is a multiple of the width and no other term breaks the
/// alignment.
int64_t cudatpl::vectorWidthAlong(const LinearAccess &access,
                                  ArrayRef<unsigned> group,
                                  ArrayRef<int64_t> ranges, int64_t maxVec) {
  if (group.empty())
    return 1;
  unsigned inner = group.back();
  if (access.coefficients[inner] != 1)
    return 1;
  for (int64_t v = maxVec; v > 1; v /= 2)
    if (ranges[inner] % v == 0 && isAlignedExcept(access, {inner}, v))
      return v;
  return 1;
}

/// `const idx_t l<d> = ...;` for the loops of one group decoded from `var`.
static std::string decodeGroup(StringRef indexType, StringRef var,
                               ArrayRef<unsigned> loops,
                               ArrayRef<int64_t> ranges,
                               ArrayRef<std::string> names) {
  return emitDecode("  ", indexType, var, loops, ranges, names);
}

/// The three address functions of a contraction: a_off(b, m, k),
/// b_off(b, k, n), c_off(b, m, n).
std::string cudatpl::emitContractionAddressing(const ProblemView &view,
                                               StringRef indexType) {
  const ContractionView &c = *view.contraction;
  SmallVector<std::string> names;
  for (int64_t d = 0; d < view.numLoops(); ++d)
    names.push_back("l" + std::to_string(d));
  std::string idx = indexType.str();
  auto function = [&](StringRef name, StringRef params,
                      ArrayRef<std::pair<StringRef, ArrayRef<unsigned>>> groups,
                      const LinearAccess &access) {
    std::string s = "__device__ __forceinline__ " + idx + " " + name.str() +
                    "(" + params.str() + ") {\n";
    SmallVector<unsigned> all;
    for (auto &[var, loops] : groups) {
      s += decodeGroup(idx, var, loops, view.loopRanges, names);
      all.append(loops.begin(), loops.end());
    }
    s += "  return " + emitLinearOffset(access, all, names, true) + ";\n}\n";
    return s;
  };
  std::string s;
  s += function("a_off", idx + " b, " + idx + " m, " + idx + " k",
                {{"b", c.batchLoops}, {"m", c.mLoops}, {"k", c.kLoops}},
                view.inputs[0].access);
  s += function("b_off", idx + " b, " + idx + " k, " + idx + " n",
                {{"b", c.batchLoops}, {"k", c.kLoops}, {"n", c.nLoops}},
                view.inputs[1].access);
  s += function("c_off", idx + " b, " + idx + " m, " + idx + " n",
                {{"b", c.batchLoops}, {"m", c.mLoops}, {"n", c.nLoops}},
                view.outputs[0].access);
  return s;
}

std::string cudatpl::emitProblemConstants(const ContractionView &c) {
  return llvm::formatv("[[maybe_unused]] constexpr long long M = {0}, N = "
                       "{1}, K = {2}, BATCH = {3};\n",
                       c.m, c.n, c.k, c.batch)
      .str();
}

static bool isGemmStorageKind(ScalarKind k) {
  return k == ScalarKind::F32 || k == ScalarKind::F16 || k == ScalarKind::BF16;
}

static LogicalResult checkContraction(const ProblemView &view,
                                      std::string &whyNot) {
  if (!view.contraction) {
    whyNot = "the problem is not a contraction (out += a * b over linear "
             "maps)";
    return failure();
  }
  const ContractionView &c = *view.contraction;
  if (c.batch > 65535) {
    whyNot = "batch larger than the grid's y limit (65535)";
    return failure();
  }
  return success();
}

LogicalResult cudatpl::checkGemmApplies(const ProblemView &view,
                                        std::string &whyNot) {
  if (failed(checkContraction(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  if (!isGemmStorageKind(c.aKind) || !isGemmStorageKind(c.bKind) ||
      !isGemmStorageKind(c.cKind)) {
    whyNot = "gemm needs f32, f16 or bf16 operands";
    return failure();
  }
  return success();
}

LogicalResult cudatpl::checkGemmTcApplies(const ProblemView &view,
                                          bool allowTf32, std::string &whyNot) {
  if (failed(checkContraction(view, whyNot)))
    return failure();
  const ContractionView &c = *view.contraction;
  bool half = c.aKind == ScalarKind::F16 && c.bKind == ScalarKind::F16;
  bool bf16 = c.aKind == ScalarKind::BF16 && c.bKind == ScalarKind::BF16;
  bool f32 = c.aKind == ScalarKind::F32 && c.bKind == ScalarKind::F32;
  if (!half && !bf16 && !(f32 && allowTf32)) {
    whyNot = f32 ? "f32 inputs use tensor cores only as tf32, which needs "
                   "allow_tf32=1"
                 : "gemm_tc needs both inputs f16 or both bf16 (or f32 with "
                   "allow_tf32=1)";
    return failure();
  }
  if (!isGemmStorageKind(c.cKind)) {
    whyNot = "gemm_tc needs an f32, f16 or bf16 output";
    return failure();
  }
  return success();
}

/// Rough merit of a tiling: the fraction of computed outputs that are real,
/// the fraction of SMs the grid fills, and the data reuse of the tile and
/// of the register block.
double cudatpl::tileScore(const ContractionView &c, int64_t bm, int64_t bn,
                          double reuse, const HardwareProfile &profile) {
  int64_t tilesM = ceilDiv(c.m, bm), tilesN = ceilDiv(c.n, bn);
  double useful =
      double(c.m) * double(c.n) / (double(tilesM * bm) * double(tilesN * bn));
  double blocks = double(tilesM * tilesN * c.batch);
  double sms = double(std::max<int64_t>(profile.numComputeUnits, 1));
  double fill = std::min(1.0, blocks / sms);
  double intensity = double(bm * bn) / double(bm + bn) / 64.0;
  return useful * fill * std::sqrt(intensity) * std::sqrt(reuse);
}
