//===- NormFamilies.cpp - The layernorm and rmsnorm families --------------===//
//
// The kernels give each row a group of lanes: two passes over the row kept
// in registers, or a streaming Welford pass and a second read.
//
//===----------------------------------------------------------------------===//

#include "CudaTemplatesInternal.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatpl;

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

LogicalResult cudatpl::checkNormApplies(const ProblemView &view, bool rms,
                                        std::string &whyNot) {
  if (!view.norm) {
    whyNot = "the problem is not a fused layer norm or RMS norm";
    return failure();
  }
  if (view.norm->rms != rms) {
    whyNot = rms ? "the problem is a layer norm, not an RMS norm"
                 : "the problem is an RMS norm, not a layer norm";
    return failure();
  }
  return success();
}

static int64_t maxNormVector(const NormView &nv) {
  int64_t bytes =
      std::max(getElementKindBytes(nv.inKind), getElementKindBytes(nv.outKind));
  if (nv.gammaArg >= 0)
    bytes = std::max(bytes, getElementKindBytes(nv.gammaKind));
  if (nv.betaArg >= 0)
    bytes = std::max(bytes, getElementKindBytes(nv.betaKind));
  int64_t v = 16 / bytes;
  while (v > 1 && nv.length % v)
    v /= 2;
  return v;
}

static int64_t cachedPerLane(const NormView &nv, int64_t threads, int64_t vec) {
  return ceilDiv(nv.length, threads * vec) * vec;
}

FailureOr<CudaKernelPlan>
mlir::stark::generateNormKernel(const ProblemView &view, const NormParams &p,
                                std::string &whyNot) {
  if (!view.norm) {
    whyNot = "the problem is not a fused layer norm or RMS norm";
    return failure();
  }
  const NormView &nv = *view.norm;
  auto pow2 = [](int64_t x) { return x > 0 && (x & (x - 1)) == 0; };
  if (!pow2(p.threads) || p.threads > 1024 || p.rows < 1 ||
      p.threads * p.rows > 1024 || (p.threads * p.rows) % 32 || !pow2(p.vec)) {
    whyNot = "threads must be a power of two, threads * rows a multiple of "
             "32 and at most 1024, vec a power of two";
    return failure();
  }
  if (p.vec > maxNormVector(nv)) {
    whyNot = llvm::formatv("vec={0} exceeds the widest aligned access along "
                           "the rows ({1})",
                           p.vec, maxNormVector(nv));
    return failure();
  }
  if (p.cache && cachedPerLane(nv, p.threads, p.vec) > 32) {
    whyNot = llvm::formatv("cache=1 keeps {0} elements per lane in registers "
                           "(at most 32)",
                           cachedPerLane(nv, p.threads, p.vec));
    return failure();
  }
  bool dbl = llvm::any_of(view.argKinds,
                          [](ElementKind k) { return k == ElementKind::F64; });
  ElementKind ck = dbl ? ElementKind::F64 : ElementKind::F32;
  std::string ct = dbl ? "double" : "float";
  std::string family = nv.rms ? "rmsnorm" : "layernorm";
  std::string kernel = "stark_" + family;
  auto mean = [&](StringRef sum, bool byFactor, double factor) {
    return byFactor ? (sum + " * " + emitScalarLiteral(ck, factor, 0)).str()
                    : (sum + " / (ct_t)LEN").str();
  };

  std::string s = getCudaPrelude(view);
  llvm::raw_string_ostream os(s);
  os << "// " << (nv.rms ? "RMS norm" : "Layer norm") << " of " << nv.rows
     << " rows of " << nv.length << ", eps " << emitScalarLiteral(ck, nv.eps, 0)
     << (nv.gammaArg >= 0 ? ", gamma" : "") << (nv.betaArg >= 0 ? ", beta" : "")
     << ".\n";
  os << "typedef " << getIndexType(view) << " idx_t;\n";
  os << "typedef " << ct << " ct_t;\n";
  os << "typedef " << getCudaStorageType(nv.inKind) << " TIn;\n";
  os << "typedef " << getCudaStorageType(nv.outKind) << " TOut;\n";
  os << "typedef " << getCudaStorageType(nv.gammaKind) << " TG;\n";
  os << "typedef " << getCudaStorageType(nv.betaKind) << " TB;\n";
  os << "constexpr idx_t ROWS = " << nv.rows << ", LEN = " << nv.length
     << ";\n";
  os << "constexpr int TPR = " << p.threads << ", RPB = " << p.rows
     << ", VEC = " << p.vec << ";\n";
  os << "constexpr bool CACHE = " << (p.cache ? "true" : "false") << ";\n";
  os << "constexpr bool HAS_GAMMA = " << (nv.gammaArg >= 0 ? "true" : "false")
     << ", HAS_BETA = " << (nv.betaArg >= 0 ? "true" : "false") << ";\n";
  os << "constexpr int PER_LANE = (int)((LEN + TPR * VEC - 1) / (TPR * "
        "VEC));\n";
  os << "constexpr int W = TPR < 32 ? TPR : 32, NW = TPR > 32 ? TPR / 32 : "
        "1;\n";
  os << "#define STARK_EPS (" << emitScalarLiteral(ck, nv.eps, 0) << ")\n";
  os << "#define STARK_MEAN(s) (" << mean("(s)", nv.meanByFactor, nv.meanFactor)
     << ")\n";
  os << "#define STARK_VAR(s) (" << mean("(s)", nv.varByFactor, nv.varFactor)
     << ")\n";
  os << "__device__ __forceinline__ ct_t stark_sqrt(ct_t x) { return "
     << (dbl ? "sqrt(x)" : "sqrtf(x)") << "; }\n";
  os << "__device__ __forceinline__ ct_t stark_rsqrt(ct_t x) { return "
     << (dbl ? "rsqrt(x)" : "rsqrtf(x)") << "; }\n";
  os << R"cuda(
// Sum over the TPR lanes of a row, returned to all of them (part: NW slots).
__device__ __forceinline__ ct_t stark_row_sum(ct_t v, ct_t* part) {
#pragma unroll
  for (int off = W / 2; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off, W);
  if constexpr (TPR > 32) {
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = part[0];
    for (int w = 1; w < NW; ++w) v += part[w];
  } else {
    v = __shfl_sync(0xffffffffu, v, 0, W);
  }
  return v;
}

// Merges the running (count, mean, M2) of two disjoint parts of a row.
__device__ __forceinline__ void stark_welford_merge(ct_t& n, ct_t& m, ct_t& m2, ct_t nb, ct_t mb, ct_t m2b) {
  if (nb == (ct_t)0) return;
  const ct_t nn = n + nb, d = mb - m;
  m += d * (nb / nn);
  m2 += m2b + d * d * (n * nb / nn);
  n = nn;
}

)cuda";
  os << "extern \"C\" __global__ void __launch_bounds__(TPR * RPB) " << kernel
     << "(" << getKernelParameters(view) << ") {\n";
  os << "  const TIn* __restrict__ x = " << argName(nv.inputArg) << ";\n";
  os << "  TOut* __restrict__ y = " << argName(nv.outputArg) << ";\n";
  os << "  const TG* __restrict__ gamma = "
     << (nv.gammaArg >= 0 ? argName(nv.gammaArg) : std::string("nullptr"))
     << ";\n";
  os << "  const TB* __restrict__ beta = "
     << (nv.betaArg >= 0 ? argName(nv.betaArg) : std::string("nullptr"))
     << ";\n";
  os << "  constexpr bool RMS = " << (nv.rms ? "true" : "false") << ";\n";
  os << "  constexpr bool DIVIDE = " << (nv.divideBySqrt ? "true" : "false")
     << ";\n";
  os << R"cuda(  __shared__ ct_t part[3][RPB][NW];
  const int lane = threadIdx.x;
  const idx_t row = (idx_t)blockIdx.x * RPB + threadIdx.y;
  // Rows past the end still take part in the block's barriers.
  const bool active = row < ROWS;
  const idx_t base = active ? row * LEN : 0;
  auto load = [&](idx_t j) { return *reinterpret_cast<const StarkVec<TIn, VEC>*>(x + base + j); };
  ct_t mean = 0, stat = 0;
  StarkVec<TIn, VEC> cached[CACHE ? PER_LANE : 1];
  if constexpr (CACHE) {
    // Two passes over the row in registers: the sum, then the centred squares.
    ct_t s = 0;
#pragma unroll
    for (int i = 0; i < PER_LANE; ++i) {
      const idx_t j = ((idx_t)i * TPR + lane) * VEC;
      if (active && j < LEN) {
        cached[i] = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          const ct_t xv = (ct_t)stark_widen(cached[i].v[v]);
          s += RMS ? xv * xv : xv;
        }
      }
    }
    s = stark_row_sum(s, part[0][threadIdx.y]);
    if constexpr (RMS) {
      stat = STARK_VAR(s);
    } else {
      mean = STARK_MEAN(s);
      ct_t q = 0;
#pragma unroll
      for (int i = 0; i < PER_LANE; ++i) {
        const idx_t j = ((idx_t)i * TPR + lane) * VEC;
        if (active && j < LEN) {
#pragma unroll
          for (int v = 0; v < VEC; ++v) {
            const ct_t d = (ct_t)stark_widen(cached[i].v[v]) - mean;
            q += d * d;
          }
        }
      }
      q = stark_row_sum(q, part[1][threadIdx.y]);
      stat = STARK_VAR(q);
    }
  } else if constexpr (RMS) {
    ct_t s = 0;
    if (active) {
#pragma unroll 4
      for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) {
        const StarkVec<TIn, VEC> xv = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          const ct_t e = (ct_t)stark_widen(xv.v[v]);
          s += e * e;
        }
      }
    }
    stat = STARK_VAR(stark_row_sum(s, part[0][threadIdx.y]));
  } else {
    // One streaming pass: each lane's Welford (count, mean, M2), merged.
    ct_t n = 0, m = 0, m2 = 0;
    if (active) {
#pragma unroll 4
      for (idx_t j = (idx_t)lane * VEC; j < LEN; j += TPR * VEC) {
        const StarkVec<TIn, VEC> xv = load(j);
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          const ct_t e = (ct_t)stark_widen(xv.v[v]);
          n += (ct_t)1;
          const ct_t d = e - m;
          m += d / n;
          m2 += d * (e - m);
        }
      }
    }
#pragma unroll
    for (int off = W / 2; off > 0; off /= 2) {
      const ct_t nb = __shfl_down_sync(0xffffffffu, n, off, W);
      const ct_t mb = __shfl_down_sync(0xffffffffu, m, off, W);
      const ct_t m2b = __shfl_down_sync(0xffffffffu, m2, off, W);
      stark_welford_merge(n, m, m2, nb, mb, m2b);
    }
    if constexpr (TPR > 32) {
      if (lane % 32 == 0) {
        part[0][threadIdx.y][lane / 32] = n;
        part[1][threadIdx.y][lane / 32] = m;
        part[2][threadIdx.y][lane / 32] = m2;
      }
      __syncthreads();
      n = part[0][threadIdx.y][0];
      m = part[1][threadIdx.y][0];
      m2 = part[2][threadIdx.y][0];
      for (int w = 1; w < NW; ++w)
        stark_welford_merge(n, m, m2, part[0][threadIdx.y][w], part[1][threadIdx.y][w], part[2][threadIdx.y][w]);
    } else {
      m = __shfl_sync(0xffffffffu, m, 0, W);
      m2 = __shfl_sync(0xffffffffu, m2, 0, W);
    }
    mean = m;
    stat = STARK_VAR(m2);
  }
  if (!active) return;
  const ct_t scale = DIVIDE ? stark_sqrt(stat + STARK_EPS) : stark_rsqrt(stat + STARK_EPS);
  auto store = [&](idx_t j, const StarkVec<TIn, VEC>& xv) {
    StarkVec<TOut, VEC> o;
    StarkVec<TG, VEC> g;
    StarkVec<TB, VEC> b;
    if constexpr (HAS_GAMMA) g = *reinterpret_cast<const StarkVec<TG, VEC>*>(gamma + j);
    if constexpr (HAS_BETA) b = *reinterpret_cast<const StarkVec<TB, VEC>*>(beta + j);
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
      const ct_t c = RMS ? (ct_t)stark_widen(xv.v[v]) : (ct_t)stark_widen(xv.v[v]) - mean;
      ct_t t = DIVIDE ? c / scale : c * scale;
      if constexpr (HAS_GAMMA) t = t * (ct_t)stark_widen(g.v[v]);
      if constexpr (HAS_BETA) t = t + (ct_t)stark_widen(b.v[v]);
      o.v[v] = stark_cast<TOut>(t);
    }
    *reinterpret_cast<StarkVec<TOut, VEC>*>(y + base + j) = o;
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
  plan.family = family;
  CudaKernelPlan::Launch launch;
  launch.kernel = kernel;
  launch.grid = {ceilDiv(nv.rows, p.rows), 1, 1};
  launch.block = {p.threads, p.rows, 1};
  plan.launches.push_back(launch);
  plan.threadsPerBlock = p.threads * p.rows;
  plan.sharedBytesPerBlock =
      3 * p.rows * std::max<int64_t>(1, p.threads / 32) * (dbl ? 8 : 4);
  setParam(plan, "threads", p.threads);
  setParam(plan, "rows", p.rows);
  setParam(plan, "vec", p.vec);
  setParam(plan, "cache", p.cache);
  return plan;
}

std::vector<NormParams> cudatpl::enumerateNorm(const ProblemView &view,
                                               const HardwareProfile &profile) {
  const NormView &nv = *view.norm;
  int64_t maxThreads =
      profile.maxThreadsPerBlock > 0 ? profile.maxThreadsPerBlock : 1024;
  int64_t maxVec = maxNormVector(nv);
  int64_t sms = std::max<int64_t>(profile.numComputeUnits, 1);
  std::vector<NormParams> out;
  auto add = [&](int64_t threads, int64_t rows, int64_t vec) {
    if (threads * rows > std::min<int64_t>(maxThreads, 1024) ||
        (threads * rows) % 32)
      return;
    for (const NormParams &q : out)
      if (q.threads == threads && q.rows == rows && q.vec == vec)
        return;
    // A row that fits in the lanes' registers is read once: that variant
    // goes first.
    if (cachedPerLane(nv, threads, vec) <= 32)
      out.push_back({threads, rows, vec, /*cache=*/true});
    out.push_back({threads, rows, vec, /*cache=*/false});
  };
  SmallVector<int64_t> vecs = {maxVec};
  if (maxVec > 1)
    vecs.push_back(1);
  for (int64_t vec : vecs) {
    int64_t perRow = ceilDiv(nv.length, vec);
    SmallVector<int64_t> lanes;
    if (perRow <= 64)
      lanes = {32, 16, 64};
    else if (perRow <= 1024)
      lanes = {32, 64, 128, 256};
    else
      lanes = {256, 512, 1024, 128};
    for (int64_t tpr : lanes) {
      int64_t rows = std::max<int64_t>(1, 256 / tpr);
      // Few rows: fewer rows per block so more SMs get one.
      if (ceilDiv(nv.rows, rows) < sms)
        rows = std::max<int64_t>(32 / std::min<int64_t>(tpr, 32), rows / 4);
      add(tpr, rows, vec);
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

namespace {
/// layernorm and rmsnorm: one generator, the view says which norm it is.
class NormFamily : public CudaTemplateFamily {
public:
  NormFamily(StringRef name, bool rms) : CudaTemplateFamily(name), rms(rms) {}

  LogicalResult check(const ProblemView &view, bool allowTf32,
                      std::string &whyNot) const override {
    return checkNormApplies(view, rms, whyNot);
  }

  std::vector<TemplateParams> enumerate(const ProblemView &view,
                                        const HardwareProfile &profile,
                                        bool allowTf32) const override {
    std::vector<TemplateParams> out;
    for (const NormParams &p : enumerateNorm(view, profile))
      out.push_back({{"threads", p.threads},
                     {"rows", p.rows},
                     {"vec", p.vec},
                     {"cache", p.cache}});
    return out;
  }

  FailureOr<CudaKernelPlan> generate(const ProblemView &view,
                                     const TemplateParams &params,
                                     std::string &whyNot) const override {
    // The generator follows the view; the family's name must agree with it.
    if (failed(checkNormApplies(view, rms, whyNot)))
      return failure();
    NormParams p;
    int64_t cache = p.cache;
    if (failed(takeParams(params,
                          {{"threads", &p.threads},
                           {"rows", &p.rows},
                           {"vec", &p.vec},
                           {"cache", &cache}},
                          whyNot)))
      return failure();
    p.cache = cache != 0;
    return generateNormKernel(view, p, whyNot);
  }

private:
  bool rms;
};
} // namespace

std::unique_ptr<StrategyFamily> mlir::stark::createLayerNormFamily() {
  return std::make_unique<NormFamily>("layernorm", /*rms=*/false);
}

std::unique_ptr<StrategyFamily> mlir::stark::createRmsNormFamily() {
  return std::make_unique<NormFamily>("rmsnorm", /*rms=*/true);
}
