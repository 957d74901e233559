//===- HardwareProfile.h - Peak rates of a target machine ------*- C++ -*-===//
//
// The numbers the cost model and the agents reason with: peak arithmetic rate
// per element type, memory bandwidth and the on-chip resources of a device.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_ANALYSIS_HARDWAREPROFILE_H
#define STARK_ANALYSIS_HARDWAREPROFILE_H

#include "stark/Analysis/AnalysisEnums.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::stark {

/// Maps an MLIR element type to the class of arithmetic units that run it.
ComputeType classifyComputeType(Type elementType);

struct HardwareProfile {
  std::string name;        // "h200", "a100", "host"
  std::string description; // one line for reports
  bool isGpu = false;
  std::string chip; // "sm_90a", "sm_80", or the host CPU name

  // Peak arithmetic rate in FLOP/s (or OP/s for integers). Dense tensor-core
  // rates for f16/bf16/tf32/f8/i8 on GPUs, vector FMA rates on the host.
  double peakF64 = 0, peakF32 = 0, peakTF32 = 0, peakF16 = 0, peakBF16 = 0,
         peakF8 = 0, peakI8 = 0, peakI32 = 0;
  // Peak DRAM (HBM) bandwidth in bytes/s.
  double memoryBandwidth = 0;

  // On-chip resources (GPU: per SM; host: per core where it applies).
  int64_t numComputeUnits = 0; // SMs or cores
  int64_t l2Bytes = 0;         // last-level cache
  int64_t sharedMemoryPerBlock = 0;
  int64_t sharedMemoryPerUnit = 0;
  int64_t registersPerUnit = 0;
  int64_t maxThreadsPerBlock = 0;
  int64_t warpSize = 0;
  int64_t simdBits = 0; // host vector width
  /// Host vector registers (32 with AVX-512 or NEON, 16 with AVX/AVX2 or
  /// SSE); 0: not known, read from simdBits.
  int64_t simdRegisters = 0;
  /// Fixed cost of launching one kernel (GPU) or calling one function (host).
  double launchOverheadSeconds = 0;

  /// Peak rate for `type`; falls back to the f32 rate for unknown types.
  double peakFor(ComputeType type) const;
};

/// Names of the built-in profiles, in the order they are documented.
ArrayRef<StringRef> getHardwareProfileNames();

/// Looks up a profile by name. `host` is measured once per process (core
/// count and vector width from the CPU, bandwidth from a short copy loop).
std::optional<HardwareProfile> lookupHardwareProfile(StringRef name);

/// The host profile, computed once and cached.
const HardwareProfile &getHostProfile();

} // namespace mlir::stark

#endif // STARK_ANALYSIS_HARDWAREPROFILE_H
