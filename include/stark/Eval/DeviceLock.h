//===- DeviceLock.h - Fair timing on a device shared by workers -*- C++ -*-===//
//
// Several evaluation workers may share one device (a GPU, or the host's
// cores on the cpu target). Compiling and verifying may overlap; timing may
// not: a timed run must have the device to itself, or another worker's
// kernels would slow it down and a contention could pick the winner. Each
// device has a lock file (flock(2), so it also excludes workers started by
// other processes of the host, e.g. MPI ranks): timing holds it exclusively,
// everything else that runs on the device holds it shared.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_DEVICELOCK_H
#define STARK_EVAL_DEVICELOCK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::stark {

enum class DeviceUse { None, Shared, Exclusive };

/// How an evaluation in `phase` (the phase names the evaluator announces)
/// uses the device of `target`: timing exclusively; running a kernel
/// shared; compiling shared on the cpu target (it runs on the cores that
/// are timed) and not at all on cuda (the host compiles while the GPU
/// times).
DeviceUse getDeviceUse(llvm::StringRef phase, llvm::StringRef target);

/// The lock file of `device` ("cpu", or what CUDA_VISIBLE_DEVICES names)
/// in the system's temporary directory: the same path in every process of
/// the host.
std::string getDeviceLockPath(llvm::StringRef device);

/// The phase of an evaluation's report that holds the time its worker
/// waited for the device lock.
inline constexpr llvm::StringLiteral kDeviceWaitPhase =
    "waiting for the device";

/// Moves the seconds an evaluation waited for the device lock (`waits`:
/// phase kind, seconds) out of the phases it waited in and into
/// kDeviceWaitPhase, so that a timing phase says how long the device was
/// timed and contention shows as what it is.
void separateDeviceWaits(
    std::vector<std::pair<std::string, double>> &phaseSeconds,
    llvm::ArrayRef<std::pair<std::string, double>> waits);

/// A flock(2) lock on one file, held in one mode at a time.
class DeviceLock {
public:
  DeviceLock() = default;
  explicit DeviceLock(llvm::StringRef path) : path(path.str()) {}
  ~DeviceLock();
  DeviceLock(const DeviceLock &) = delete;
  DeviceLock &operator=(const DeviceLock &) = delete;

  /// Holds the lock in `use` from now on (None releases it). Blocks until
  /// it is granted. False when the file cannot be opened or locked; the
  /// caller then goes on unlocked (a lock is for fairness, not safety).
  bool hold(DeviceUse use);
  DeviceUse getHeld() const { return held; }

private:
  std::string path;
  int fd = -1;
  DeviceUse held = DeviceUse::None;
};

} // namespace mlir::stark

#endif // STARK_EVAL_DEVICELOCK_H
