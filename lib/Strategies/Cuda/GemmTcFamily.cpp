//===- GemmTcFamily.cpp - The tensor-core GEMM family (gemm_tc) -----------===//

#include "GemmCommon.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

// Tensor-core GEMM (WMMA)
//===----------------------------------------------------------------------===//

namespace {
struct TcLayout {
  bool tf32 = false;
  int64_t elemBytes = 2, fk = 16, pad = 8;
  int64_t threads = 0, warps = 0;
  int aAxis = 0, va = 1; // 0: A tile stored [BM][BK] (k contiguous)
  int bAxis = 0, vb = 1; // 0: B tile stored [BK][BN] (n contiguous)
  int64_t pipeBytes = 0, sharedBytes = 0;
  int64_t registers = 0;
};
} // namespace

static FailureOr<TcLayout>
layoutTc(const ProblemView &view, const GemmTcParams &p, std::string &whyNot) {
  const ContractionView &c = *view.contraction;
  TcLayout l;
  l.tf32 = c.aKind == ElementKind::F32;
  l.elemBytes = l.tf32 ? 4 : 2;
  l.fk = l.tf32 ? 8 : 16;
  l.pad = 16 / l.elemBytes;
  if (p.wm % 16 || p.wn % 16 || p.wm <= 0 || p.wn <= 0 || p.bm % p.wm ||
      p.bn % p.wn || p.bk % l.fk || p.bk <= 0 || p.stages < 2 || p.stages > 8 ||
      p.groupM < 1) {
    whyNot = llvm::formatv("wm and wn must be multiples of 16 dividing bm and "
                           "bn, bk a multiple of {0}, stages in [2, 8]",
                           l.fk);
    return failure();
  }
  l.warps = (p.bm / p.wm) * (p.bn / p.wn);
  l.threads = 32 * l.warps;
  if (l.threads > 1024) {
    whyNot = llvm::formatv("{0} threads per block (limit 1024)", l.threads);
    return failure();
  }
  // 16-byte cp.async units where the layout allows, else element copies.
  int64_t unit = 16 / l.elemBytes;
  const OperandView &a = view.inputs[0], &b = view.inputs[1];
  int64_t ak = vectorWidthAlong(a.access, c.kLoops, view.loopRanges, unit);
  int64_t am = vectorWidthAlong(a.access, c.mLoops, view.loopRanges, unit);
  if (ak == unit) {
    l.aAxis = 0;
    l.va = unit;
  } else if (am == unit) {
    l.aAxis = 1;
    l.va = unit;
  } else {
    l.aAxis = c.transposeA ? 1 : 0;
  }
  int64_t bn = vectorWidthAlong(b.access, c.nLoops, view.loopRanges, unit);
  int64_t bk = vectorWidthAlong(b.access, c.kLoops, view.loopRanges, unit);
  if (bn == unit) {
    l.bAxis = 0;
    l.vb = unit;
  } else if (bk == unit) {
    l.bAxis = 1;
    l.vb = unit;
  } else {
    l.bAxis = c.transposeB ? 1 : 0;
  }
  int64_t aStage = l.aAxis == 0 ? p.bm * (p.bk + l.pad) : p.bk * (p.bm + l.pad);
  int64_t bStage = l.bAxis == 0 ? p.bk * (p.bn + l.pad) : p.bn * (p.bk + l.pad);
  l.pipeBytes = p.stages * (aStage + bStage) * l.elemBytes;
  l.sharedBytes = l.pipeBytes + l.warps * 256 * 4;
  int64_t fm = p.wm / 16, fn = p.wn / 16;
  // Accumulator fragments (8 floats each), operand fragments, addressing.
  l.registers = fm * fn * 8 + (fm + fn) * (l.tf32 ? 4 : 8) + 40;
  return l;
}

/// The family's parameters.
static ArrayRef<ParamField<GemmTcParams>> getGemmTcFields() {
  static const ParamField<GemmTcParams> fields[] = {
      {"bm", &GemmTcParams::bm},
      {"bn", &GemmTcParams::bn},
      {"bk", &GemmTcParams::bk},
      {"wm", &GemmTcParams::wm},
      {"wn", &GemmTcParams::wn},
      {"stages", &GemmTcParams::stages},
      {"group_m", &GemmTcParams::groupM},
      {"allow_tf32", &GemmTcParams::allowTf32}};
  return fields;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateGemmTcKernel(const ProblemView &view,
                                  const GemmTcParams &p, std::string &whyNot) {
  if (failed(checkGemmTcApplies(view, p.allowTf32, whyNot)))
    return failure();
  FailureOr<TcLayout> layout = layoutTc(view, p, whyNot);
  if (failed(layout))
    return failure();
  const ContractionView &c = *view.contraction;
  std::string idx = getIndexType(view);
  StringRef inType = getCudaStorageType(c.aKind);
  std::string fragType = layout->tf32 ? "wmma::precision::tf32" : inType.str();

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "#include <mma.h>\n\n";
  os << "// Tensor-core GEMM (WMMA " << (layout->tf32 ? "tf32" : inType)
     << " inputs, f32 accumulation): C[b, m, n] += sum_k A[b, m, k] * "
        "B[b, k, n].\n";
  os << emitProblemConstants(c);
  os << llvm::formatv("constexpr int BM = {0}, BN = {1}, BK = {2}, WM = {3}, "
                      "WN = {4}, STAGES = {5}, GROUP_M = {6};\n",
                      p.bm, p.bn, p.bk, p.wm, p.wn, p.stages, p.groupM);
  os << "constexpr int FK = " << layout->fk << ", PAD = " << layout->pad
     << ";\n";
  os << "// A tile stored " << (layout->aAxis == 0 ? "[BM][BK]" : "[BK][BM]")
     << ", copied " << layout->va << " elements at a time; B tile stored "
     << (layout->bAxis == 0 ? "[BK][BN]" : "[BN][BK]") << ", " << layout->vb
     << " at a time.\n";
  os << "constexpr int A_AXIS = " << layout->aAxis << ", VA = " << layout->va
     << ", B_AXIS = " << layout->bAxis << ", VB = " << layout->vb << ";\n";
  os << "constexpr bool TF32 = " << (layout->tf32 ? "true" : "false") << ";\n";
  os << "typedef " << inType << " TIn;\n";
  os << "typedef " << getCudaStorageType(c.cKind) << " TC;\n";
  os << "typedef " << idx << " idx_t;\n\n";
  os << emitContractionAddressing(view, "idx_t") << "\n";
  if (view.epilogue)
    os << "struct StarkEpilogue {\n"
       << emitEpilogueLayoutMembers(view, "idx_t") << "};\n\n";
  os << "using namespace nvcuda;\n";
  os << "typedef wmma::fragment<wmma::matrix_a, 16, 16, FK, " << fragType
     << ", " << (layout->aAxis == 0 ? "wmma::row_major" : "wmma::col_major")
     << "> FragA;\n";
  os << "typedef wmma::fragment<wmma::matrix_b, 16, 16, FK, " << fragType
     << ", " << (layout->bAxis == 0 ? "wmma::row_major" : "wmma::col_major")
     << "> FragB;\n";
  os << R"cuda(typedef wmma::fragment<wmma::accumulator, 16, 16, FK, float> FragC;

constexpr int WARPS_M = BM / WM, WARPS_N = BN / WN;
constexpr int THREADS = 32 * WARPS_M * WARPS_N;
constexpr int FM = WM / 16, FN = WN / 16;
constexpr int A_COLS = (A_AXIS == 0 ? BK : BM) + PAD;
constexpr int B_COLS = (B_AXIS == 0 ? BN : BK) + PAD;
constexpr int A_STAGE = (A_AXIS == 0 ? BM : BK) * A_COLS;
constexpr int B_STAGE = (B_AXIS == 0 ? BK : BN) * B_COLS;
constexpr int PIPE_BYTES = STAGES * (A_STAGE + B_STAGE) * (int)sizeof(TIn);
constexpr int TILES_M = (int)((M + BM - 1) / BM), TILES_N = (int)((N + BN - 1) / BN);
constexpr int K_TILES = (int)((K + BK - 1) / BK);
constexpr int A_UNITS = BM * BK / VA, B_UNITS = BK * BN / VB;

// 16-byte asynchronous copy; a false predicate writes zeros instead.
__device__ __forceinline__ void stark_cp_async16(void* smem, const void* gmem, bool full) {
  const unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem), "r"(full ? 16 : 0));
}
__device__ __forceinline__ void stark_cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void stark_cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

)cuda";
  // An explicit minimum of one block: without it ptxas was seen to cap the
  // registers of some instances low enough to spill.
  os << "extern \"C\" __global__ void __launch_bounds__(THREADS, 1) "
        "stark_gemm_tc("
     << getKernelParameters(view) << ") {\n";
  os << "  const TIn* __restrict__ A = " << argName(view.inputs[0].argNumber)
     << ";\n";
  os << "  const TIn* __restrict__ B = " << argName(view.inputs[1].argNumber)
     << ";\n";
  // With an epilogue its struct reads the other inputs and stores the
  // output; C is the output only without.
  if (view.epilogue)
    os << "  StarkEpilogue epi;\n" << emitEpilogueLayoutBinding(view, "epi");
  else
    os << "  TC* __restrict__ C = " << argName(view.outputs[0].argNumber)
       << ";\n";
  os << R"cuda(  extern __shared__ __align__(128) unsigned char stark_smem[];
  TIn* const a_tiles = reinterpret_cast<TIn*>(stark_smem);
  TIn* const b_tiles = a_tiles + STAGES * A_STAGE;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / WARPS_N, warp_n = warp % WARPS_N;
  const int pid = blockIdx.x;
  const int group_width = GROUP_M * TILES_N;
  const int first_m = (pid / group_width) * GROUP_M;
  const int group_rows = min(TILES_M - first_m, GROUP_M);
  const int tile_m = first_m + (pid % group_width) % group_rows;
  const int tile_n = (pid % group_width) / group_rows;
  const idx_t m0 = (idx_t)tile_m * BM, n0 = (idx_t)tile_n * BN;
  const idx_t batch = blockIdx.y;

  auto load_tile = [&](int stage, int kt) {
    const idx_t k0 = (idx_t)kt * BK;
    TIn* as = a_tiles + stage * A_STAGE;
    TIn* bs = b_tiles + stage * B_STAGE;
#pragma unroll
    for (int u = tid; u < A_UNITS; u += THREADS) {
      int r, col;
      idx_t m, k;
      if constexpr (A_AXIS == 0) { r = u / (BK / VA); col = (u % (BK / VA)) * VA; m = m0 + r; k = k0 + col; }
      else { r = u / (BM / VA); col = (u % (BM / VA)) * VA; k = k0 + r; m = m0 + col; }
      const bool ok = m < M && k < K;
      TIn* dst = as + r * A_COLS + col;
      if constexpr (VA > 1) stark_cp_async16(dst, ok ? (const void*)(A + a_off(batch, m, k)) : (const void*)A, ok);
      else *dst = ok ? A[a_off(batch, m, k)] : stark_cast<TIn>(0.f);
    }
#pragma unroll
    for (int u = tid; u < B_UNITS; u += THREADS) {
      int r, col;
      idx_t k, n;
      if constexpr (B_AXIS == 0) { r = u / (BN / VB); col = (u % (BN / VB)) * VB; k = k0 + r; n = n0 + col; }
      else { r = u / (BK / VB); col = (u % (BK / VB)) * VB; n = n0 + r; k = k0 + col; }
      const bool ok = k < K && n < N;
      TIn* dst = bs + r * B_COLS + col;
      if constexpr (VB > 1) stark_cp_async16(dst, ok ? (const void*)(B + b_off(batch, k, n)) : (const void*)B, ok);
      else *dst = ok ? B[b_off(batch, k, n)] : stark_cast<TIn>(0.f);
    }
  };

  FragC acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.f);

  // STAGES - 1 tiles in flight ahead of the one being multiplied.
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < K_TILES) load_tile(s, s);
    stark_cp_async_commit();
  }
  for (int kt = 0; kt < K_TILES; ++kt) {
    stark_cp_async_wait<STAGES - 2>();
    __syncthreads();
    const int next = kt + STAGES - 1;
    if (next < K_TILES) load_tile(next % STAGES, next);
    stark_cp_async_commit();
    const TIn* as = a_tiles + (kt % STAGES) * A_STAGE;
    const TIn* bs = b_tiles + (kt % STAGES) * B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += FK) {
      FragA af[FM];
      FragB bf[FN];
#pragma unroll
      for (int i = 0; i < FM; ++i) {
        const int row = warp_m * WM + i * 16;
        wmma::load_matrix_sync(af[i], A_AXIS == 0 ? as + row * A_COLS + kk : as + kk * A_COLS + row, A_COLS);
        if constexpr (TF32) {
#pragma unroll
          for (int t = 0; t < af[i].num_elements; ++t) af[i].x[t] = wmma::__float_to_tf32(af[i].x[t]);
        }
      }
#pragma unroll
      for (int j = 0; j < FN; ++j) {
        const int col = warp_n * WN + j * 16;
        wmma::load_matrix_sync(bf[j], B_AXIS == 0 ? bs + kk * B_COLS + col : bs + col * B_COLS + kk, B_COLS);
        if constexpr (TF32) {
#pragma unroll
          for (int t = 0; t < bf[j].num_elements; ++t) bf[j].x[t] = wmma::__float_to_tf32(bf[j].x[t]);
        }
      }
#pragma unroll
      for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], af[i], bf[j], acc[i][j]);
    }
  }
  stark_cp_async_wait<0>();

  // Each warp stages one 16x16 accumulator at a time through its own
  // scratch tile, then adds it to C (or to C_INIT, without reading C, when
  // the problem fills C first) with guarded, converted stores.
  float* scratch = reinterpret_cast<float*>(stark_smem + PIPE_BYTES) + warp * 256;
#pragma unroll
  for (int i = 0; i < FM; ++i) {
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const idx_t m = m0 + warp_m * WM + i * 16 + e / 16;
        const idx_t n = n0 + warp_n * WN + j * 16 + e % 16;
        if (m < M && n < N) {
)cuda";
  if (view.epilogue)
    os << "          epi.epilogue((int)batch, (int)m, (int)n, C_INIT + "
          "scratch[e]);\n";
  else
    os << R"cuda(          TC* p = C + c_off(batch, m, n);
          *p = stark_cast<TC>((C_FROM_INIT ? C_INIT : (float)stark_widen(*p)) + scratch[e]);
)cuda";
  os << R"cuda(        }
      }
      __syncwarp();
    }
  }
}
)cuda";

  CudaKernelPlan plan = makeGemmPlan(
      c, "gemm_tc", "stark_gemm_tc", std::move(s), p.bm, p.bn, layout->threads,
      layout->sharedBytes, /*dynamicShared=*/true);
  return plan;
}

std::vector<GemmTcParams>
cudatpl::enumerateGemmTc(const ProblemView &view,
                         const HardwareProfile &profile, bool allowTf32) {
  static const int64_t shapes[][5] = {
      // bm, bn, bk (for 16-bit inputs), wm, wn
      {128, 128, 32, 64, 32}, {128, 256, 32, 64, 64}, {256, 128, 32, 64, 64},
      {128, 128, 32, 64, 64}, {128, 128, 64, 64, 32}, {128, 64, 32, 64, 32},
      {64, 128, 32, 32, 64},  {64, 64, 32, 32, 32},   {64, 64, 64, 32, 32},
      {32, 64, 32, 16, 32},   {64, 32, 32, 32, 16},   {32, 32, 32, 16, 16}};
  const ContractionView &c = *view.contraction;
  bool tf32 = c.aKind == ElementKind::F32;
  BlockLimits limits(profile);
  std::vector<std::pair<GemmTcParams, double>> scored;
  for (int64_t stages : {3, 4, 2}) {
    for (auto &shape : shapes) {
      GemmTcParams p;
      p.bm = shape[0];
      p.bn = shape[1];
      // Same bytes per k-slice for tf32: half the elements.
      p.bk = tf32 ? shape[2] / 2 : shape[2];
      p.wm = shape[3];
      p.wn = shape[4];
      p.stages = stages;
      p.allowTf32 = allowTf32 && tf32;
      std::string ignored;
      FailureOr<TcLayout> l = layoutTc(view, p, ignored);
      if (failed(l) || !limits.fits(l->sharedBytes, l->threads, l->registers))
        continue;
      double reuse = double(p.wm * p.wn) / double(p.wm + p.wn) / 16.0;
      double score = tileScore(c, p.bm, p.bn, reuse, profile);
      if (stages != 3)
        score *= 0.9;
      scored.push_back({p, score});
    }
  }
  return sortByScore(std::move(scored));
}

std::unique_ptr<StrategyFamily> mlir::stark::createGemmTcFamily() {
  auto rank = [](const ProblemView &view,
                 bool allowTf32) -> std::optional<unsigned> {
    if (!ranksAsContraction(view))
      return std::nullopt;
    if (allowTf32 && view.contraction->aKind == ElementKind::F32 &&
        !hasShallowK(view))
      return kAllowedTf32;
    return kTensorCores;
  };
  return makeFunctionFamily<GemmTcParams>(
      "gemm_tc", getGemmTcFields(), {/*initValue=*/true, /*epilogue=*/true},
      rank, checkGemmTcApplies, enumerateGemmTc, generateGemmTcKernel);
}
