//===- CudaRuntime.h - mgpu* functions for JIT'd code -----------*- C++ -*-===//
//
// MLIR lowers host-side GPU code (gpu.launch_func, gpu.alloc, gpu.memcpy,
// the module loads of gpu.binary) to calls of `mgpu*` functions that
// upstream implements in libmlir_cuda_runtime, which Debian does not ship
// and which would link libcuda. stark provides its own, over the driver it
// loaded at run time, and hands them to the ExecutionEngine by address.
//
// They differ from upstream's where timing needs it: every stream the host
// code creates is the target's one stream, and synchronising it is deferred
// to the end of the run, so that device events around a run measure the
// kernels back to back rather than host round trips between them. The same
// makes a program's launches capturable into a CUDA graph.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_CUDARUNTIME_H
#define STARK_TARGET_CUDARUNTIME_H

#include "stark/Target/CudaDriver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <map>
#include <string>
#include <utility>

namespace mlir::stark {

/// What the mgpu* functions act on while one compiled kernel runs: the
/// driver, the stream, the first error, and what the host code created.
class CudaRuntimeState {
public:
  CudaRuntimeState(const CudaDriverApi &api, CUstream stream)
      : api(api), stream(stream) {}
  ~CudaRuntimeState();

  const CudaDriverApi &api;
  CUstream stream;

  /// Set while a timed run holds the stream at the gate: opens it. Called
  /// (once) before the host code does anything that may wait for the
  /// stream: a copy it then waits for, an event wait, a device allocation,
  /// a module load.
  std::function<void()> releaseGate;
  void openGateBeforeWait() {
    if (releaseGate)
      std::exchange(releaseGate, nullptr)();
  }
  /// Set while the host code's launches are captured into a CUDA graph
  /// (CudaTarget, TimingRunOptions::graphHostPrograms): the graph replays
  /// only what reached the stream, so host code that waits for the device
  /// cannot be captured.
  bool capturing = false;
  /// Before the host code waits for the stream (`what`): opens the gate;
  /// while capturing, records that the program cannot be captured and
  /// returns false, and the caller does nothing.
  bool beforeWait(const char *what);

  /// Keeps the first error; the JIT-compiled code cannot return one.
  void recordError(std::string message);
  /// Records `what` failed unless `result` is CUDA_SUCCESS.
  bool check(CUresult result, const char *what);
  bool hasError() const { return !error.empty(); }
  std::string takeError() { return std::exchange(error, std::string()); }

  /// Returns the device memory the host code allocated and did not free to
  /// the pool (the stream must be idle).
  void releaseAllocations();
  /// Frees all device memory, unloads modules and destroys events.
  void releaseAll();

  llvm::DenseSet<CUmodule> modules;
  /// Kernels looked up in a module, by name: the host code looks its kernel
  /// up before every launch, and the driver's lookup is paid once.
  llvm::DenseMap<CUmodule, llvm::StringMap<CUfunction>> functions;
  /// The dynamic shared memory each kernel above the default 48 KB has been
  /// allowed: raised when a launch asks for more, not before every launch.
  llvm::DenseMap<CUfunction, int32_t> sharedLimits;
  /// Forgets the kernels looked up in `module` (it is being unloaded).
  void forgetModule(CUmodule module);
  /// Live allocations of the host code, with their sizes.
  llvm::DenseMap<CUdeviceptr, uint64_t> allocations;
  /// Freed allocations kept for reuse, by size: a temporary allocated and
  /// freed in every run costs cuMemAlloc/cuMemFree (and a synchronisation)
  /// only once, not inside every timed run. All work is on one stream, so a
  /// block freed there may be handed out again at once.
  std::multimap<uint64_t, CUdeviceptr> pool;
  llvm::DenseSet<CUevent> events;
  /// Device copies of the host globals that the host code reads, by host
  /// address, with their sizes: made on first use, kept until releaseAll.
  llvm::DenseMap<const void *, std::pair<CUdeviceptr, uint64_t>> globals;
  /// Device memory of the tensor maps the host code encoded, by their
  /// bytes: a program that runs many times encodes the same maps again and
  /// gets the same memory. Kept until releaseAll.
  std::map<std::string, CUdeviceptr> tensorMaps;

private:
  std::string error;
};

/// Makes `state` the one the mgpu* functions use on this thread until the
/// scope ends.
class CudaRuntimeScope {
public:
  explicit CudaRuntimeScope(CudaRuntimeState &state);
  ~CudaRuntimeScope();
  CudaRuntimeScope(const CudaRuntimeScope &) = delete;
  CudaRuntimeScope &operator=(const CudaRuntimeScope &) = delete;

private:
  CudaRuntimeState *previous;
};

/// Name -> address of every mgpu* function stark provides.
const llvm::StringMap<void *> &getCudaRuntimeSymbols();

} // namespace mlir::stark

#endif // STARK_TARGET_CUDARUNTIME_H
