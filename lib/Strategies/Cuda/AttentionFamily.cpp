//===- AttentionFamily.cpp - Flash-style attention
//-------------------------===//
//
// softmax(Q K^T * scale [+ mask]) V as one kernel (Kernels/Attention.cuh,
// AttentionMma16.cuh, AttentionF32.cuh):
// each block owns a tile of query rows and walks the keys in tiles with an
// online softmax, so the scores never go to memory. f16 and bf16 run on
// mma.sync tensor cores with f32 accumulation (head dims 64 and 128, Q, K
// and V rows contiguous); f32 runs in f32 (no TF32) on any strides.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"
#include "ParamTable.h"

#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

#define DEBUG_TYPE "stark-attention"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

namespace {

/// Shared memory a block may have on sm_80 and sm_90 (opted in).
constexpr int64_t kMaxAttentionSharedBytes = 227 * 1024;
/// Threads of a causal launch's scan and the keys each of its blocks reads
/// (kAttnScanThreads, kAttnScanRows in Attention.cuh).
constexpr int64_t kAttentionScanThreads = 256, kAttentionScanRows = 128;

/// A block of `bm` query rows in `warps` warps walks keys `bn` at a time.
/// The f32 kernel gives each thread `tm` rows and `tn` keys of the score
/// tile (0 for the tensor-core kernel).
struct AttentionParams {
  int64_t bm = 64, bn = 64, warps = 4, tm = 0, tn = 0;
};

bool isHalfKind(ElementKind k) {
  return k == ElementKind::F16 || k == ElementKind::BF16;
}

/// Whether the tensor-core kernel takes the problem: 16-bit Q, K and V of
/// one type, head dims 64 or 128, rows contiguous and 16-byte aligned.
bool takesTensorCores(const AttentionView &a, std::string &whyNot) {
  if (!isHalfKind(a.qKind) || a.kKind != a.qKind || a.vKind != a.qKind) {
    whyNot = "the tensor-core kernel takes Q, K and V of one 16-bit type";
    return false;
  }
  if ((a.d != 64 && a.d != 128) || (a.dv != 64 && a.dv != 128)) {
    whyNot = "the tensor-core kernel takes head dims 64 and 128";
    return false;
  }
  for (const std::array<int64_t, 4> &s : {a.qStrides, a.kStrides, a.vStrides})
    if (s[3] != 1 || s[0] % 8 || s[1] % 8 || s[2] % 8) {
      whyNot = "the tensor-core kernel reads rows of Q, K and V that are "
               "contiguous and 16-byte aligned";
      return false;
    }
  return true;
}

std::vector<AttentionParams> getTiles(const AttentionView &a, int64_t maxShared,
                                      int64_t units, std::string &whyNot);

LogicalResult checkAttentionApplies(const ProblemView &view,
                                    std::string &whyNot) {
  if (!view.attention) {
    whyNot = "the problem is not attention";
    return failure();
  }
  const AttentionView &a = *view.attention;
  if (a.causal && a.maskArg >= 0) {
    whyNot = "the kernel takes a causal condition or an additive mask, not "
             "both";
    return failure();
  }
  if (a.batch * a.heads > 65535) {
    whyNot = "more than 65535 batch indices (the grid's y dimension)";
    return failure();
  }
  bool f32 = a.qKind == ElementKind::F32 && a.kKind == ElementKind::F32 &&
             a.vKind == ElementKind::F32;
  if (!f32 && !takesTensorCores(a, whyNot))
    return failure();
  if (a.maskArg >= 0 && a.maskKind == ElementKind::F64) {
    whyNot = "the kernel adds f32, f16 or bf16 masks";
    return failure();
  }
  if (!isFloatKind(a.oKind) || a.oKind == ElementKind::F64) {
    whyNot = "the kernel writes f32, f16 or bf16 outputs";
    return failure();
  }
  if (getTiles(a, kMaxAttentionSharedBytes, /*units=*/0, whyNot).empty())
    return failure();
  return success();
}

/// The magnitude of Q and K elements from which a score s = (q . k) * scale
/// might overflow to +inf in f32, whose hidden s + -inf would then be NaN
/// (see Masking in Attention.cuh): below it, d terms of at most limit^2
/// times scale (and log2(e), the kernels' unit) stay under 2^126.
double getCausalLimit(const AttentionView &a) {
  double factor = double(a.d) * std::max(a.scale * 1.5, 1.0);
  return std::sqrt(std::ldexp(1.0, 126) / factor);
}

/// Blocks of the scan per batch index (attnScanChunks).
int64_t getScanChunks(const AttentionView &a) {
  return ceilDiv(a.sk, kAttentionScanRows);
}

/// Dynamic shared memory of the tensor-core kernel (as
/// attentionMma16SharedBytes in AttentionMma16.cuh, which the source
/// checks).
int64_t getMma16SharedBytes(const AttentionView &a, const AttentionParams &p) {
  int64_t warpTiles = p.bm / p.warps / 16;
  bool qInRegisters = warpTiles * a.d <= 128;
  int64_t stage = p.bn * a.d * 2 + p.bn * a.dv * 2;
  int64_t q = p.bm * a.d * 2;
  bool aliased = qInRegisters && q <= stage;
  return 2 * stage + (aliased ? 0 : q);
}

/// Dynamic shared memory of the f32 kernel (attentionF32SharedBytes).
int64_t getF32SharedBytes(const AttentionView &a, const AttentionParams &p) {
  int64_t columnGroups = p.bn / p.tn;
  int64_t dvPadded = ceilDiv(a.dv, columnGroups * 4) * columnGroups * 4;
  int64_t floats = a.d * (p.bm + 4) + a.d * (p.bn + 4) + p.bn * (dvPadded + 4) +
                   p.bn * (p.bm + 4);
  return 4 * floats;
}

bool usesTensorCores(const AttentionView &a) { return isHalfKind(a.qKind); }

LogicalResult validate(const AttentionView &a, const AttentionParams &p,
                       std::string &whyNot) {
  if (p.warps < 1 || p.warps > 8 || p.bm < 16 || p.bn < 16) {
    whyNot = "warps must be 1-8, bm and bn at least 16";
    return failure();
  }
  if (usesTensorCores(a)) {
    int64_t warpRows = p.bm % p.warps ? 0 : p.bm / p.warps;
    if ((warpRows != 16 && warpRows != 32) || p.bn % 16 || p.tm || p.tn ||
        (p.warps * 32) % (a.d / 8) || (p.warps * 32) % (a.dv / 8)) {
      whyNot = "the tensor-core kernel needs 16 or 32 query rows a warp, bn "
               "a multiple of 16, and no tm or tn";
      return failure();
    }
    return success();
  }
  if (p.tm < 4 || p.tn < 4 || p.tm % 4 || p.tn % 4 || p.bm % p.tm ||
      p.bn % p.tn || (p.bm / p.tm) * (p.bn / p.tn) != p.warps * 32 ||
      !llvm::isPowerOf2_64(p.bn / p.tn) || p.bn / p.tn > 32) {
    whyNot = "the f32 kernel needs tm and tn multiples of 4 dividing bm and "
             "bn, (bm / tm) (bn / tn) threads = 32 warps, and bn / tn a "
             "power of two of at most 32";
    return failure();
  }
  return success();
}

std::string stridesOf(const std::array<int64_t, 4> &s) {
  return llvm::formatv("{{{0}, {1}, {2}, {3}}", s[0], s[1], s[2], s[3]).str();
}

FailureOr<CudaKernelPlan> generateAttentionKernel(const ProblemView &view,
                                                  const AttentionParams &p,
                                                  std::string &whyNot) {
  if (failed(checkAttentionApplies(view, whyNot)))
    return failure();
  const AttentionView &a = *view.attention;
  if (failed(validate(a, p, whyNot)))
    return failure();
  bool tc = usesTensorCores(a);
  int64_t shared = tc ? getMma16SharedBytes(a, p) : getF32SharedBytes(a, p);
  if (shared > kMaxAttentionSharedBytes) {
    whyNot = llvm::formatv("the tiles need {0} bytes of shared memory (at "
                           "most {1})",
                           shared, kMaxAttentionSharedBytes);
    return failure();
  }
  std::string idx = getIndexType(view);
  int mask = a.maskArg >= 0 ? 2 : a.causal ? 1 : 0;
  // A candidate carries the shared part and its own kernel only.
  std::string s =
      getCudaPrelude(view, {"Lanes.cuh", "Attention.cuh",
                            tc ? "AttentionMma16.cuh" : "AttentionF32.cuh"});
  llvm::raw_string_ostream os(s);
  os << "// softmax(Q K^T * scale"
     << (mask == 2   ? " + mask"
         : mask == 1 ? ", causal"
                     : "")
     << ") V: " << a.batch << " x " << a.heads << " heads, " << a.sq
     << " queries, " << a.sk << " keys, head dims " << a.d << " / " << a.dv
     << ".\n";
  os << "struct StarkAttention {\n";
  os << "  typedef " << idx << " Idx;\n";
  os << "  typedef " << getCudaStorageType(a.qKind) << " In;\n";
  os << "  typedef " << getCudaStorageType(a.oKind) << " Out;\n";
  os << "  typedef "
     << getCudaStorageType(mask == 2 ? a.maskKind : ElementKind::F32)
     << " MaskT;\n";
  os << "  static constexpr Idx kBatch = " << a.batch * a.heads
     << ", kHeads = " << a.heads << ", kSq = " << a.sq << ", kSk = " << a.sk
     << ", kD = " << a.d << ", kDv = " << a.dv << ";\n";
  os << "  static constexpr Idx kQStride[4] = " << stridesOf(a.qStrides)
     << ", kKStride[4] = " << stridesOf(a.kStrides)
     << ", kVStride[4] = " << stridesOf(a.vStrides)
     << ", kOStride[4] = " << stridesOf(a.oStrides)
     << ", kMaskStride[4] = " << stridesOf(a.maskStrides) << ";\n";
  os << "  static constexpr float kScale = "
     << llvm::formatv("{0:e9}", a.scale).str() << "f;\n";
  os << "  static constexpr int kMask = " << mask << ";\n";
  os << "  static constexpr Idx kCausalOffset = 0;\n";
  os << "  static constexpr bool kCausalAdds = "
     << (a.causalAdds ? "true" : "false") << ";\n";
  os << "  static constexpr float kCausalLimit = "
     << llvm::formatv("{0:e9}", getCausalLimit(a)).str() << "f;\n";
  os << "  static constexpr int kBlockM = " << p.bm << ", kBlockN = " << p.bn
     << ", kWarps = " << p.warps << ";\n";
  if (!tc)
    os << "  static constexpr int kThreadM = " << p.tm
       << ", kThreadN = " << p.tn << ";\n";
  os << "};\n";
  StringRef body = tc ? "attentionMma16" : "attentionF32";
  os << "static_assert(stark_kernels::" << body
     << "SharedBytes<StarkAttention>() == " << shared
     << ", \"the launch's shared memory\");\n\n";
  std::string qkv =
      argName(a.qArg) + ", " + argName(a.kArg) + ", " + argName(a.vArg);
  if (mask == 1) {
    // The scan's flags (Masking in Attention.cuh): rewritten by every run.
    os << "__device__ unsigned stark_attention_full["
       << a.batch * a.heads * getScanChunks(a) << "];\n\n";
    os << "extern \"C\" __global__ void __launch_bounds__("
       << kAttentionScanThreads << ") stark_attention_scan("
       << getKernelParameters(view) << ") {\n";
    os << "  stark_kernels::attentionCausalScan<StarkAttention>("
       << argName(a.kArg) << ", " << argName(a.vArg)
       << ", stark_attention_full);\n}\n\n";
  }
  os << "extern \"C\" __global__ void __launch_bounds__(" << p.warps * 32
     << ") stark_attention(" << getKernelParameters(view) << ") {\n";
  os << "  stark_kernels::" << body << "<StarkAttention>(" << qkv << ", "
     << (mask == 2 ? argName(a.maskArg) : "nullptr") << ", "
     << argName(a.outArg) << ", "
     << (mask == 1 ? "stark_attention_full" : "nullptr") << ");\n}\n";
  LLVM_DEBUG(llvm::dbgs() << "attention: " << body << " bm " << p.bm << " bn "
                          << p.bn << " warps " << p.warps << ", " << shared
                          << " bytes of shared memory\n");
  CudaKernelPlan plan = makeOneLaunchPlan(
      "attention", std::move(s), "stark_attention",
      {ceilDiv(a.sq, p.bm), a.batch * a.heads, 1}, {p.warps * 32, 1, 1},
      /*staticShared=*/0, /*dynamicShared=*/shared);
  if (mask == 1) {
    CudaKernelPlan::Launch scan;
    scan.kernel = "stark_attention_scan";
    scan.grid = {getScanChunks(a), a.batch * a.heads, 1};
    scan.block = {kAttentionScanThreads, 1, 1};
    plan.launches.insert(plan.launches.begin(), scan);
    plan.threadsPerBlock =
        std::max(plan.threadsPerBlock, kAttentionScanThreads);
  }
  return plan;
}

/// The tiles that fit `a` within `maxShared` bytes of shared memory, the
/// fastest measured first on a GPU of `units` SMs (0: unknown); `whyNot`
/// says why the first candidate tile does not fit when none does.
std::vector<AttentionParams> getTiles(const AttentionView &a, int64_t maxShared,
                                      int64_t units, std::string &whyNot) {
  std::vector<AttentionParams> out;
  bool first = true;
  auto add = [&](AttentionParams p) {
    for (const AttentionParams &q : out)
      if (q.bm == p.bm && q.bn == p.bn && q.warps == p.warps)
        return;
    std::string why;
    bool fits = succeeded(validate(a, p, why));
    int64_t shared = usesTensorCores(a) ? getMma16SharedBytes(a, p)
                                        : getF32SharedBytes(a, p);
    if (fits && shared > maxShared) {
      fits = false;
      why = llvm::formatv("the tiles need {0} bytes of shared memory (at most "
                          "{1})",
                          shared, maxShared);
    }
    if (fits)
      out.push_back(p);
    else if (first)
      whyNot = why;
    first = false;
  };
  if (usesTensorCores(a)) {
    // Fewer blocks of 128 query rows than two a unit leave units idle: the
    // smaller tiles first. On the H100 the LLaMA block's attention (16
    // heads of 512 queries, 64 blocks of 128 rows, bf16, causal) ran at
    // 27.6 us with bm 64, bn 32 against 36.8 us with bm 128, bn 64.
    if (units > 0 && ceilDiv(a.sq, 128) * a.batch * a.heads < 2 * units) {
      add({64, 32, 4});
      add({64, 64, 4});
    }
    // On the H100 (B 8, H 16, S 2048, bf16) 32 rows a warp ran fastest at
    // both head dims: two m16 tiles share every K and V fragment (327
    // TFLOP/s at D 128, 293 at D 64); 16 rows a warp keep Q in registers
    // without spilling (285 at D 128).
    add({128, 64, 4});
    add({64, 64, 4});
    add({128, 32, 4});
    add({64, 32, 4});
    add({128, 64, 8});
    return out;
  }
  // f32: 8 warps with 8 x 4 thread tiles ran fastest on the H100 (33
  // TFLOP/s at D 128), then 128 threads.
  add({128, 64, 8, 8, 4});
  add({64, 64, 4, 8, 4});
  add({64, 64, 4, 4, 8});
  add({128, 64, 4, 8, 8});
  add({32, 64, 4, 4, 4});
  add({64, 32, 4, 4, 4});
  return out;
}

std::vector<AttentionParams>
enumerateAttention(const ProblemView &view, const HardwareProfile &profile) {
  int64_t maxShared =
      profile.sharedMemoryPerBlock > 0
          ? std::min(profile.sharedMemoryPerBlock, kMaxAttentionSharedBytes)
          : kMaxAttentionSharedBytes;
  std::string ignored;
  return getTiles(*view.attention, maxShared, profile.numComputeUnits, ignored);
}

} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createAttentionFamily() {
  using P = AttentionParams;
  static const ParamField<P> fields[] = {{"bm", &P::bm},
                                         {"bn", &P::bn},
                                         {"warps", &P::warps},
                                         {"tm", &P::tm, 0},
                                         {"tn", &P::tn, 0}};
  return makeFunctionFamily<P>(
      "attention", fields, {}, rankOnly(RankingKind::Attention, kFirst),
      checkAttentionApplies, enumerateAttention, generateAttentionKernel);
}
