//===- HardwareProfile.cpp - Built-in and measured machine profiles -------===//

#include "stark/Analysis/HardwareProfile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::stark;

ComputeType mlir::stark::classifyComputeType(Type t) {
  if (t.isF64())
    return ComputeType::F64;
  if (t.isF32())
    return ComputeType::F32;
  if (t.isTF32())
    return ComputeType::TF32;
  if (t.isF16())
    return ComputeType::F16;
  if (t.isBF16())
    return ComputeType::BF16;
  if (auto f = dyn_cast<FloatType>(t); f && f.getWidth() == 8)
    return ComputeType::F8;
  if (t.isInteger(8))
    return ComputeType::I8;
  if (t.isIntOrIndex())
    return ComputeType::I32;
  return ComputeType::Other;
}

double HardwareProfile::peakFor(ComputeType t) const {
  // A rate of 0 means "no dedicated units": fall back to the next wider type.
  auto orElse = [](double v, double fallback) { return v > 0 ? v : fallback; };
  switch (t) {
  case ComputeType::F64:
    return orElse(peakF64, peakF32 / 2);
  case ComputeType::F32:
    return peakF32;
  case ComputeType::TF32:
    return orElse(peakTF32, peakF32);
  case ComputeType::F16:
    return orElse(peakF16, peakF32);
  case ComputeType::BF16:
    return orElse(peakBF16, orElse(peakF16, peakF32));
  case ComputeType::F8:
    return orElse(peakF8, orElse(peakF16, peakF32));
  case ComputeType::I8:
    return orElse(peakI8, orElse(peakI32, peakF32));
  case ComputeType::I32:
    return orElse(peakI32, peakF32);
  case ComputeType::Other:
    return peakF32;
  }
  return peakF32;
}

/// Dense peak rates (no sparsity) in FLOP/s (OP/s for integers); 0 means
/// no dedicated units.
struct GpuPeaks {
  double f64, f32, tf32, f16, bf16, f8, i8, i32;
};

/// An NVIDIA GPU of `sms` SMs with `smemPerSmKB` KB of shared memory per SM
/// (1 KB of it reserved per block), 64K registers per SM, 1024 threads per
/// block and 2 us of launch overhead.
static HardwareProfile makeNvidiaGpu(StringRef name, StringRef description,
                                     StringRef chip, const GpuPeaks &peaks,
                                     double bandwidth, int64_t sms,
                                     int64_t l2MB, int64_t smemPerSmKB) {
  HardwareProfile p;
  p.name = name.str();
  p.description = description.str();
  p.isGpu = true;
  p.chip = chip.str();
  p.peakF64 = peaks.f64;
  p.peakF32 = peaks.f32;
  p.peakTF32 = peaks.tf32;
  p.peakF16 = peaks.f16;
  p.peakBF16 = peaks.bf16;
  p.peakF8 = peaks.f8;
  p.peakI8 = peaks.i8;
  p.peakI32 = peaks.i32;
  p.memoryBandwidth = bandwidth;
  p.numComputeUnits = sms;
  p.l2Bytes = l2MB << 20;
  p.sharedMemoryPerBlock = (smemPerSmKB - 1) << 10;
  p.sharedMemoryPerUnit = smemPerSmKB << 10;
  p.registersPerUnit = 65536;
  p.maxThreadsPerBlock = 1024;
  p.warpSize = 32;
  p.launchOverheadSeconds = 2e-6;
  return p;
}

// NVIDIA H200 SXM, from NVIDIA's H200 datasheet (dense rates, no sparsity):
// FP64 34 TFLOP/s, FP32 67, TF32 tensor 494.5, FP16/BF16 tensor 989.5,
// FP8 1979, INT8 1979 TOP/s, HBM3e 4.8 TB/s. 132 SMs and 60 MB L2 as the
// device reports them; 228 KB shared memory per SM (227 KB per block).
static HardwareProfile makeH200() {
  return makeNvidiaGpu(
      "h200", "NVIDIA H200 SXM (sm_90a, 132 SMs, HBM3e 4.8 TB/s)", "sm_90a",
      {34e12, 67e12, 494.5e12, 989.5e12, 989.5e12, 1979e12, 1979e12, 33.5e12},
      4.8e12, 132, 60, 228);
}

// NVIDIA A100 SXM 80 GB, from NVIDIA's A100 datasheet (dense rates):
// FP64 9.7 TFLOP/s, FP32 19.5, TF32 tensor 156, FP16/BF16 tensor 312,
// INT8 624 TOP/s, HBM2e 2.039 TB/s; 108 SMs, 40 MB L2, 164 KB shared memory
// per SM (163 KB per block). No FP8 units.
static HardwareProfile makeA100() {
  return makeNvidiaGpu(
      "a100", "NVIDIA A100 SXM 80GB (sm_80, 108 SMs, HBM2e 2.0 TB/s)", "sm_80",
      {9.7e12, 19.5e12, 156e12, 312e12, 312e12, 0, 624e12, 9.75e12}, 2.039e12,
      108, 40, 164);
}

/// Reads the first number after `key` in /proc/cpuinfo.
static std::optional<double> readCpuInfoNumber(StringRef key) {
  auto buf = llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo");
  if (!buf)
    return std::nullopt;
  StringRef text = (*buf)->getBuffer();
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    if (!line.starts_with(key))
      continue;
    StringRef value = line.split(':').second.trim();
    double v;
    if (!value.getAsDouble(v))
      return v;
  }
  return std::nullopt;
}

static std::optional<int64_t> readCacheBytes() {
  // The largest cache level the kernel describes for cpu0.
  int64_t best = 0;
  for (int index = 0; index < 8; ++index) {
    std::string path = "/sys/devices/system/cpu/cpu0/cache/index" +
                       std::to_string(index) + "/size";
    auto buf = llvm::MemoryBuffer::getFileAsStream(path);
    if (!buf)
      continue;
    StringRef s = (*buf)->getBuffer().trim();
    int64_t scale = 1;
    if (s.consume_back("K"))
      scale = 1024;
    else if (s.consume_back("M"))
      scale = 1024 * 1024;
    int64_t v;
    if (!s.getAsInteger(10, v))
      best = std::max(best, v * scale);
  }
  if (best == 0)
    return std::nullopt;
  return best;
}

/// Single-thread copy bandwidth (bytes read + written per second), best of a
/// few passes over buffers larger than any cache.
static double measureCopyBandwidth() {
  constexpr size_t kBytes = 64u << 20;
  std::unique_ptr<char[]> src(new char[kBytes]);
  std::unique_ptr<char[]> dst(new char[kBytes]);
  std::memset(src.get(), 1, kBytes);
  std::memset(dst.get(), 0, kBytes);
  double best = 0;
  for (int trial = 0; trial < 3; ++trial) {
    auto start = std::chrono::steady_clock::now();
    std::memcpy(dst.get(), src.get(), kBytes);
    auto stop = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(stop - start).count();
    if (seconds > 0)
      best = std::max(best, 2.0 * kBytes / seconds);
    src[trial] = dst[kBytes - 1 - trial]; // keep the copies observable
  }
  return best;
}

static HardwareProfile makeHost() {
  HardwareProfile p;
  p.name = "host";
  p.isGpu = false;
  p.chip = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](StringRef f) { return features.lookup(f); };
  p.simdBits = has("avx512f") ? 512 : (has("avx") || has("neon")) ? 256 : 128;
  if (has("neon") && !has("avx"))
    p.simdBits = 128;
  p.simdRegisters = has("avx512f") || has("neon") ? 32 : 16;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  p.numComputeUnits = cores;
  double ghz = 2.5;
  if (auto mhz = readCpuInfoNumber("cpu MHz"); mhz && *mhz > 100)
    ghz = *mhz / 1000.0;
  // Two FMA pipes per core on every x86 core with FMA since Haswell.
  double fmaPipes = has("fma") ? 2.0 : 1.0;
  double f32Lanes = p.simdBits / 32.0;
  p.peakF32 = cores * ghz * 1e9 * f32Lanes * 2.0 * fmaPipes;
  p.peakF64 = p.peakF32 / 2;
  // No native half-precision arithmetic assumed: f16/bf16 run as f32.
  p.peakF16 = has("avx512fp16") ? p.peakF32 * 2 : 0;
  p.peakBF16 = 0;
  p.peakI32 = p.peakF32 / 2;
  p.memoryBandwidth = measureCopyBandwidth();
  p.l2Bytes = readCacheBytes().value_or(32LL << 20);
  p.launchOverheadSeconds = 1e-7;
  p.description =
      llvm::formatv("host CPU ({0}, {1} cores, {2}-bit SIMD, "
                    "{3:f1} GHz, copy {4:f1} GB/s)",
                    p.chip, cores, p.simdBits, ghz, p.memoryBandwidth / 1e9)
          .str();
  return p;
}

const HardwareProfile &mlir::stark::getHostProfile() {
  static const HardwareProfile host = makeHost();
  return host;
}

ArrayRef<StringRef> mlir::stark::getHardwareProfileNames() {
  static const StringRef names[] = {"h200", "a100", "host"};
  return names;
}

std::optional<HardwareProfile>
mlir::stark::lookupHardwareProfile(StringRef name) {
  if (name == "h200")
    return makeH200();
  if (name == "a100")
    return makeA100();
  if (name == "host")
    return getHostProfile();
  return std::nullopt;
}
