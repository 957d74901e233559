//===- SoftmaxFamily.cpp - The softmax family -----------------------------===//
//
// linalg.softmax in the online (running max, rescaled sum) form, one row per
// lane group.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// softmax
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkSoftmaxApplies(const ProblemView &view,
                                           std::string &whyNot) {
  if (!view.softmax) {
    whyNot = "the problem is not linalg.softmax";
    return failure();
  }
  if (!isFloatKind(view.softmax->inKind) ||
      !isFloatKind(view.softmax->outKind)) {
    whyNot = "softmax needs float input and output";
    return failure();
  }
  return success();
}

static int64_t maxSoftmaxVector(const SoftmaxView &sv) {
  if (sv.inner != 1)
    return 1;
  int64_t bytes =
      std::max(getElementKindBytes(sv.inKind), getElementKindBytes(sv.outKind));
  int64_t v = 16 / bytes;
  while (v > 1 && sv.length % v)
    v /= 2;
  return v;
}

FailureOr<CudaKernelPlan> mlir::stark::generateSoftmaxKernel(
    const ProblemView &view, const SoftmaxParams &p, std::string &whyNot) {
  if (failed(checkSoftmaxApplies(view, whyNot)))
    return failure();
  const SoftmaxView &sv = *view.softmax;
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || !pow2(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows at most 1024, "
             "vec a power of two";
    return failure();
  }
  if (p.cache && ceilDiv(sv.length, p.threads * p.vec) * p.vec > 32) {
    whyNot = llvm::formatv("cache=1 keeps {0} elements per lane in registers "
                           "(at most 32)",
                           ceilDiv(sv.length, p.threads * p.vec) * p.vec);
    return failure();
  }
  if (p.vec > maxSoftmaxVector(sv)) {
    whyNot = llvm::formatv("vec={0} exceeds the widest aligned access along "
                           "the rows ({1})",
                           p.vec, maxSoftmaxVector(sv));
    return failure();
  }
  std::string idx = getIndexType(view);
  bool dbl = sv.inKind == ElementKind::F64 || sv.outKind == ElementKind::F64;
  std::string ct = dbl ? "double" : "float";
  std::string inType = getCudaStorageType(sv.inKind).str();
  std::string outType = getCudaStorageType(sv.outKind).str();

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// Online softmax along dimension " << sv.dim << ": " << sv.rows
     << " rows of " << sv.length << ", stride " << sv.inner << ".\n";
  os << "typedef " << idx << " idx_t;\n";
  os << "typedef " << ct << " ct_t;\n";
  os << "typedef " << inType << " TIn;\n";
  os << "typedef " << outType << " TOut;\n";
  os << "constexpr idx_t ROWS = " << sv.rows << ", LEN = " << sv.length
     << ", INNER = " << sv.inner << ";\n";
  os << "constexpr int TPR = " << p.threads << ", RPB = " << p.rows
     << ", VEC = " << p.vec << ";\n";
  os << "// Each lane's part of a row stays in registers between the passes.\n";
  os << "constexpr bool CACHE = " << (p.cache ? "true" : "false") << ";\n";
  os << "constexpr int PER_LANE = (int)((LEN + TPR * VEC - 1) / (TPR * "
        "VEC));\n";
  os << "__device__ __forceinline__ ct_t stark_exp(ct_t x) { return "
     << (dbl ? "exp(x)" : "expf(x)") << "; }\n";
  os << "#define STARK_NEG_INF ("
     << emitScalarLiteral(dbl ? ElementKind::F64 : ElementKind::F32, -INFINITY,
                          0)
     << ")\n";
  os << R"cuda(
// Adds x to the running (max, sum of exp(x - max)) of a row.
__device__ __forceinline__ void stark_online(ct_t x, ct_t& m, ct_t& s) {
  if (x > m) { s = s * stark_exp(m - x) + (ct_t)1; m = x; }
  else if (x != STARK_NEG_INF) s += stark_exp(x - m);
}
// Merges two running pairs.
__device__ __forceinline__ void stark_merge(ct_t& m, ct_t& s, ct_t m2, ct_t s2) {
  const ct_t mx = m > m2 ? m : m2;
  if (mx == STARK_NEG_INF) return;
  s = (m == STARK_NEG_INF ? (ct_t)0 : s * stark_exp(m - mx)) + (m2 == STARK_NEG_INF ? (ct_t)0 : s2 * stark_exp(m2 - mx));
  m = mx;
}

)cuda";
  os << "extern \"C\" __global__ void __launch_bounds__(TPR * RPB) "
        "stark_softmax("
     << getKernelParameters(view) << ") {\n";
  os << "  const TIn* __restrict__ in = " << argName(0) << ";\n";
  os << "  TOut* __restrict__ out = " << argName(1) << ";\n";
  os << R"cuda(  const int lane = threadIdx.x;
  const idx_t row = (idx_t)blockIdx.x * RPB + threadIdx.y;
  const idx_t base = (row / INNER) * (LEN * INNER) + row % INNER;
  ct_t m = STARK_NEG_INF, s = 0;
  // Lane-interleaved vectors: part i of a lane starts at (i * TPR + lane) * VEC.
  auto load = [&](idx_t j) {
    if constexpr (VEC > 1) {
      return *reinterpret_cast<const StarkVec<TIn, VEC>*>(in + base + j);
    } else {
      StarkVec<TIn, VEC> x;
      x.v[0] = in[base + j * INNER];
      return x;
    }
  };
  StarkVec<TIn, VEC> cached[CACHE ? PER_LANE : 1];
  if (row < ROWS) {
    if constexpr (CACHE) {
#pragma unroll
      for (int i = 0; i < PER_LANE; ++i) {
        const idx_t j = ((idx_t)i * TPR + lane) * VEC;
        if (j < LEN) {
          cached[i] = load(j);
#pragma unroll
          for (int v = 0; v < VEC; ++v) stark_online((ct_t)stark_widen(cached[i].v[v]), m, s);
        }
      }
    } else {
#pragma unroll 4
      for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) {
        const StarkVec<TIn, VEC> x = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) stark_online((ct_t)stark_widen(x.v[v]), m, s);
      }
    }
  }
  // Merge the lanes of the row, then hand the result to all of them.
  constexpr int W = TPR < 32 ? TPR : 32;
#pragma unroll
  for (int off = W / 2; off > 0; off /= 2) {
    const ct_t m2 = __shfl_down_sync(0xffffffffu, m, off, W);
    const ct_t s2 = __shfl_down_sync(0xffffffffu, s, off, W);
    stark_merge(m, s, m2, s2);
  }
  if constexpr (TPR > 32) {
    __shared__ ct_t wm[RPB][TPR > 32 ? TPR / 32 : 1], ws[RPB][TPR > 32 ? TPR / 32 : 1];
    if (lane % 32 == 0) { wm[threadIdx.y][lane / 32] = m; ws[threadIdx.y][lane / 32] = s; }
    __syncthreads();
    m = wm[threadIdx.y][0];
    s = ws[threadIdx.y][0];
    for (int w = 1; w < TPR / 32; ++w) stark_merge(m, s, wm[threadIdx.y][w], ws[threadIdx.y][w]);
  } else {
    m = __shfl_sync(0xffffffffu, m, 0, W);
    s = __shfl_sync(0xffffffffu, s, 0, W);
  }
  if (row >= ROWS) return;
  const ct_t inv = (ct_t)1 / s;
  auto store = [&](idx_t j, const StarkVec<TIn, VEC>& x) {
    StarkVec<TOut, VEC> y;
#pragma unroll
    for (int v = 0; v < VEC; ++v) y.v[v] = stark_cast<TOut>(stark_exp((ct_t)stark_widen(x.v[v]) - m) * inv);
    if constexpr (VEC > 1) *reinterpret_cast<StarkVec<TOut, VEC>*>(out + base + j) = y;
    else out[base + j * INNER] = y.v[0];
  };
  if constexpr (CACHE) {
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
      const idx_t j = ((idx_t)i * TPR + lane) * VEC;
      if (j < LEN) store(j, cached[i]);
    }
  } else {
#pragma unroll 4
    for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) store(j, load(j));
  }
}
)cuda";

  CudaKernelPlan plan;
  plan.source = std::move(s);
  plan.family = "softmax";
  CudaKernelPlan::Launch launch;
  launch.kernel = "stark_softmax";
  launch.grid = {ceilDiv(sv.rows, p.rows), 1, 1};
  launch.block = {p.threads, p.rows, 1};
  plan.launches.push_back(launch);
  plan.threadsPerBlock = p.threads * p.rows;
  plan.sharedBytesPerBlock =
      p.threads > 32 ? 2 * p.rows * (p.threads / 32) * (dbl ? 8 : 4) : 0;
  setParam(plan, "threads", p.threads);
  setParam(plan, "rows", p.rows);
  setParam(plan, "vec", p.vec);
  setParam(plan, "cache", p.cache);
  return plan;
}

std::vector<SoftmaxParams>
cudatpl::enumerateSoftmax(const ProblemView &view,
                          const HardwareProfile &profile) {
  const SoftmaxView &sv = *view.softmax;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t maxVec = maxSoftmaxVector(sv);
  int64_t sms = std::max<int64_t>(profile.numComputeUnits, 1);
  std::vector<SoftmaxParams> out;
  auto add = [&](int64_t threads, int64_t rows, int64_t vec) {
    if (threads * rows > maxThreads || threads * rows > 1024)
      return;
    for (const SoftmaxParams &q : out)
      if (q.threads == threads && q.rows == rows && q.vec == vec)
        return;
    // A row that fits in the lanes' registers is read once: that variant
    // goes first.
    if (ceilDiv(sv.length, threads * vec) * vec <= 32)
      out.push_back({threads, rows, vec, /*cache=*/true});
    out.push_back({threads, rows, vec, /*cache=*/false});
  };
  SmallVector<int64_t> vecs = {maxVec};
  if (maxVec > 1)
    vecs.push_back(1);
  if (sv.inner > 1) {
    // Strided rows: a thread per row keeps neighbouring threads on
    // neighbouring addresses.
    for (int64_t rows : {128, 256, 64})
      add(1, rows, 1);
    for (int64_t rows : {4, 8})
      add(32, rows, 1);
    return out;
  }
  for (int64_t vec : vecs) {
    int64_t perLane = ceilDiv(sv.length, vec);
    // Lane counts that give each lane a few vectors, then their neighbours.
    SmallVector<int64_t> lanes;
    if (perLane <= 64)
      lanes = {32, 16, 64};
    else if (perLane <= 1024)
      lanes = {32, 64, 128, 256};
    else
      lanes = {256, 512, 1024, 128, 32};
    for (int64_t tpr : lanes) {
      int64_t rows = std::max<int64_t>(1, 256 / tpr);
      // Few rows: fewer rows per block so more SMs get one.
      if (ceilDiv(sv.rows, rows) < sms)
        rows = std::max<int64_t>(1, rows / 4);
      add(tpr, rows, vec);
    }
  }
  return out;
}

namespace {
class SoftmaxFamily : public CudaTemplateFamily {
public:
  SoftmaxFamily() : CudaTemplateFamily("softmax") {}

  LogicalResult check(const ProblemView &view, bool allowTf32,
                      std::string &whyNot) const override {
    return checkSoftmaxApplies(view, whyNot);
  }

  std::vector<TemplateParams> enumerate(const ProblemView &view,
                                        const HardwareProfile &profile,
                                        bool allowTf32) const override {
    std::vector<TemplateParams> out;
    for (const SoftmaxParams &p : enumerateSoftmax(view, profile))
      out.push_back({{"threads", p.threads},
                     {"rows", p.rows},
                     {"vec", p.vec},
                     {"cache", p.cache}});
    return out;
  }

  FailureOr<CudaKernelPlan> generate(const ProblemView &view,
                                     const TemplateParams &params,
                                     std::string &whyNot) const override {
    SoftmaxParams p;
    int64_t cache = p.cache;
    if (failed(takeParams(params,
                          {{"threads", &p.threads},
                           {"rows", &p.rows},
                           {"vec", &p.vec},
                           {"cache", &cache}},
                          whyNot)))
      return failure();
    p.cache = cache != 0;
    return generateSoftmaxKernel(view, p, whyNot);
  }
};
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createSoftmaxFamily() {
  return std::make_unique<SoftmaxFamily>();
}
