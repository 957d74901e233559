//===- CudaTargetInternal.h - What the parts of the cuda target share -----===//
//
// The device every run shares, the argument buffers on it and the loaded
// kernels: CudaTarget.cpp makes them, CudaDevice.cpp, CudaArgBuffers.cpp
// and CudaKernel.cpp hold what each does.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_TARGET_CUDATARGETINTERNAL_H
#define STARK_LIB_TARGET_CUDATARGETINTERNAL_H

#include "stark/Target/CudaBufferCompare.h"
#include "stark/Target/CudaCompile.h"
#include "stark/Target/CudaDeviceLoad.h"
#include "stark/Target/CudaDriver.h"
#include "stark/Target/CudaRuntime.h"
#include "stark/Target/CudaTensorMaps.h"
#include "stark/Target/Target.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ADT/DenseSet.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mlir::stark::cudatarget {

class CudaArgBuffers;
class CudaKernel;

/// The device, its primary context and what every run shares. Buffers and
/// kernels hold it too, so they may outlive the Target object.
class CudaDevice {
public:
  explicit CudaDevice(const CudaDriverApi &api) : api(api) {}
  ~CudaDevice();

  /// Retains the primary context of device 0 and creates the stream, the
  /// events and the L2 flush buffer.
  LogicalResult initialize(std::string &error);
  /// The context must be current on the calling thread for every call.
  LogicalResult makeCurrent(std::string &error);
  /// Waits for the stream; `what` names the work waited for (a kernel
  /// fault surfaces at the first wait after it).
  LogicalResult synchronize(StringRef what, std::string &error);
  /// Holds the stream at the timing gate (see gateHost) until openGate;
  /// false where the driver refuses it (the gate is then given up).
  bool holdAtGate();
  void openGate(bool held);
  /// Queue a copy of `bytes` on the stream (host to device, device to
  /// host); a refused one is an error naming `what`.
  LogicalResult copyToDevice(CUdeviceptr to, const void *from, size_t bytes,
                             StringRef what, std::string &error);
  LogicalResult copyToHost(void *to, CUdeviceptr from, size_t bytes,
                           StringRef what, std::string &error);

  const CudaDriverApi &api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  CUevent start = nullptr;
  CUevent stop = nullptr;
  CUdeviceptr flushBuffer = 0;
  size_t flushBytes = 0;
  /// The timing gate: a flag in mapped host memory the stream waits on
  /// before the start event, raised once the timed work is enqueued, so
  /// that the events never time a host busy with other work (another
  /// search's compiler) instead of the kernel. Null where the driver
  /// refuses it; timing then goes ungated.
  volatile uint32_t *gateHost = nullptr;
  CUdeviceptr gateDevice = 0;
  uint32_t gateValue = 0;
  int maxSharedOptin = 48 * 1024;
  /// Compares staged input sets with the arguments (made on first use).
  std::unique_ptr<CudaBufferCompare> compare;
  /// Keeps part of the device busy beside a run (made on first use).
  std::unique_ptr<CudaDeviceLoad> load;
  int smCount = 1;
  CudaArch arch;
  std::string name;

  // What this device made and has not yet destroyed: the Target interface
  // hands back base-class references, and without RTTI this is how a
  // foreign object is told apart.
  llvm::DenseSet<const ArgBuffers *> liveBuffers;
  llvm::DenseSet<const CompiledKernel *> liveKernels;
};

//===----------------------------------------------------------------------===//
// Argument buffers
//===----------------------------------------------------------------------===//

class CudaArgBuffers : public ArgBuffers {
public:
  CudaArgBuffers(std::shared_ptr<CudaDevice> device, const KernelSignature &sig)
      : device(std::move(device)), specs(sig.args.begin(), sig.args.end()) {
    this->device->liveBuffers.insert(this);
  }
  ~CudaArgBuffers() override;

  LogicalResult allocate(std::string &error);
  LogicalResult upload(ArrayRef<HostBuffer> host, std::string &error) override;
  LogicalResult download(MutableArrayRef<HostBuffer> host,
                         std::string &error) override;
  LogicalResult downloadArg(unsigned index, HostBuffer &host,
                            std::string &error) override;
  FailureOr<std::string> checkGuards(std::string &error) override;
  LogicalResult stage(ArrayRef<std::vector<HostBuffer>> sets,
                      std::string &error) override;
  LogicalResult restore(unsigned index, std::string &error) override;
  /// Queues the copies of restore() on the stream, without waiting.
  LogicalResult enqueueRestore(unsigned index, std::string &error);
  FailureOr<SmallVector<unsigned>>
  findChangedInputs(unsigned index, std::string &error) override;

  std::shared_ptr<CudaDevice> device;
  SmallVector<ArgSpec> specs;
  /// Where each argument starts: kGuardBytes into its allocation.
  SmallVector<CUdeviceptr> pointers;

private:
  void freeStaged();
  /// Staged input sets: one device copy per argument of each set.
  SmallVector<SmallVector<CUdeviceptr>> staged;

  /// Writes the guard pattern of argument `i` on both sides.
  LogicalResult resetGuards(size_t i, std::string &error);
  /// Checks `host` against the signature, queues `copyArg` for each
  /// argument with bytes and waits for the copies (`what` names the wait).
  LogicalResult copyEach(ArrayRef<HostBuffer> host, StringRef what,
                         function_ref<LogicalResult(size_t)> copyArg,
                         std::string &error);
};

/// Opens the device's gate after `seconds` unless disarmed first: a host
/// program timed behind the gate that waits for the stream in a way the
/// runtime does not open the gate for would otherwise wait forever.
class GateWatchdog {
public:
  GateWatchdog(CudaDevice &device, double seconds);
  ~GateWatchdog() { disarm(); }
  /// Stops the watchdog; true when it had to open the gate.
  bool disarm();

private:
  CudaDevice &device;
  std::mutex mutex;
  std::condition_variable wake;
  bool disarmed = false, fired = false;
  std::thread thread;
};

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

class CudaKernel : public CompiledKernel {
public:
  CudaKernel(std::shared_ptr<CudaDevice> device, size_t numArgs)
      : device(std::move(device)), numArgs(numArgs) {
    this->device->liveKernels.insert(this);
  }
  ~CudaKernel() override { device->liveKernels.erase(this); }

  /// Queues the kernels on the device's stream without waiting.
  virtual LogicalResult enqueue(CudaArgBuffers &args, std::string &error) = 0;
  /// Queues what the next enqueue on `args` needs before its launches (a
  /// timed run calls it before its start event, so that only the launches
  /// are timed). Without it, enqueue does that work itself.
  virtual LogicalResult prepareEnqueue(CudaArgBuffers &args,
                                       std::string &error) {
    return success();
  }
  /// Whether enqueue only launches kernels on the stream (nothing that
  /// waits for it): such runs are timed behind the gate (CudaDevice).
  virtual bool enqueuesOnlyLaunches() const { return false; }
  /// Whether enqueue runs host code that may wait for the stream and opens
  /// the gate before it does (through setGateRelease), so that it may run
  /// behind the gate too (TimingRunOptions::gateHostPrograms); a launch
  /// list never waits and needs none of this.
  virtual bool opensGateBeforeWaits() const { return false; }
  /// What opens the gate while enqueue runs; null when no gate is held.
  virtual void setGateRelease(std::function<void()> release) {}
  /// Whether getGraph can capture this kernel's enqueue: lowered host code
  /// (a launch list already runs its kernels back to back behind the
  /// gate).
  virtual bool capturesAsGraph() const { return false; }
  /// The enqueue of `args` captured into a CUDA graph and instantiated:
  /// made on first use, again when the arguments move, kept with the
  /// kernel.
  virtual FailureOr<CUgraphExec> getGraph(CudaArgBuffers &args,
                                          std::string &error) {
    error = "this kernel is not captured as a CUDA graph";
    return failure();
  }
  /// After the stream is idle: releases what the run allocated.
  virtual void finishRun() {}
  /// After enqueue (`enqueued`, else its `enqueueError`): waits for the
  /// stream and releases what the run allocated. Fails with the enqueue's
  /// error, else the wait's.
  LogicalResult finishQueued(bool enqueued, std::string enqueueError,
                             std::string &error);

  LogicalResult run(ArgBuffers &args, std::string &error) override;

  /// Checks that `args` were made by this device for this kernel's
  /// signature.
  FailureOr<CudaArgBuffers *> getArgs(ArgBuffers &args, std::string &error);

  std::shared_ptr<CudaDevice> device;
  size_t numArgs;
};

/// An MLIR candidate: JIT-compiled host code that launches PTX kernels.
class MlirCudaKernel : public CudaKernel {
public:
  MlirCudaKernel(std::shared_ptr<CudaDevice> device, size_t numArgs)
      : CudaKernel(std::move(device), numArgs),
        state(this->device->api, this->device->stream) {}
  ~MlirCudaKernel() override;

  LogicalResult enqueue(CudaArgBuffers &args, std::string &error) override;
  void finishRun() override { state.releaseAllocations(); }
  /// The runtime opens the gate before the host code waits (CudaRuntime).
  bool opensGateBeforeWaits() const override { return true; }
  void setGateRelease(std::function<void()> release) override {
    state.releaseGate = std::move(release);
  }
  bool capturesAsGraph() const override { return true; }
  FailureOr<CUgraphExec> getGraph(CudaArgBuffers &args,
                                  std::string &error) override;
  void destroyGraph();

  CudaRuntimeState state;
  std::unique_ptr<ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  /// Rank of each memref argument: the entry takes each as a descriptor
  /// (allocated, aligned, offset, sizes, strides).
  SmallVector<SmallVector<int64_t>> shapes;
  /// The captured program (getGraph) and the argument pointers it was
  /// captured for. Its temporaries are the pool's blocks: they stay
  /// allocated until releaseAll, which destroys the graph first.
  CUgraphExec graph = nullptr;
  SmallVector<CUdeviceptr> graphArgs;
};

/// A CUDA C++ candidate: an NVRTC-built module and its launches.
class SourceCudaKernel : public CudaKernel {
public:
  struct Launch {
    CUfunction function = nullptr;
    CudaLaunch config;
    /// config.tensorMaps described, and where in mapMemory each goes.
    std::vector<TensorMapSpec> maps;
    unsigned firstMap = 0;
  };
  using CudaKernel::CudaKernel;
  ~SourceCudaKernel() override {
    if (!module && !mapMemory)
      return;
    device->api.cuCtxSetCurrentFn(device->context);
    if (mapMemory)
      device->api.cuMemFreeFn(mapMemory);
    if (module)
      device->api.cuModuleUnloadFn(module);
  }

  LogicalResult enqueue(CudaArgBuffers &args, std::string &error) override;
  /// Encodes the launches' tensor maps for `args` and queues their writes.
  LogicalResult prepareEnqueue(CudaArgBuffers &args,
                               std::string &error) override;
  bool enqueuesOnlyLaunches() const override { return true; }

  CUmodule module = nullptr;
  SmallVector<Launch> launches;
  /// The arguments the maps were last written for by prepareEnqueue: the
  /// next enqueue on them takes the maps as they are and clears this, so
  /// every enqueue is preceded by a write of its own.
  const CudaArgBuffers *mapsWrittenFor = nullptr;
  /// The launches' tensor maps in device memory, 128 bytes each, written
  /// before every launch (a kernel cannot keep anything there between
  /// runs), and the host copies they are written from.
  CUdeviceptr mapMemory = 0;
  std::vector<CUtensorMap> hostMaps;
};

} // namespace mlir::stark::cudatarget

#endif // STARK_LIB_TARGET_CUDATARGETINTERNAL_H
