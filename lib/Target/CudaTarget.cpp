//===- CudaTarget.cpp - Candidates on an NVIDIA GPU -----------------------===//
//
// Two kinds of candidate reach the GPU:
//  - MLIR (a problem's linalg, or GPU-dialect code): lowered by
//    lowerModuleForCuda to host LLVM-dialect code plus PTX, the host part
//    JIT-compiled with the ExecutionEngine against stark's mgpu* functions;
//    the driver JIT-compiles the PTX when the module loads.
//  - CUDA C++ (`stark.cuda` on the entry): NVRTC to a cubin, loaded by the
//    driver, launched as the attribute lists.
// Both run on the target's one stream; run() waits, timeRun() reads device
// events recorded around the kernels only.
//
//===----------------------------------------------------------------------===//

#include "stark/Target/CudaTarget.h"
#include "stark/Target/CudaBufferCompare.h"
#include "stark/Target/CudaCompile.h"
#include "stark/Target/CudaDeviceLoad.h"
#include "stark/Target/CudaDriver.h"
#include "stark/Target/CudaRuntime.h"
#include "stark/Target/LoweredGuards.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include <memory>

using namespace mlir;
using namespace mlir::stark;

namespace {

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

CudaDevice::~CudaDevice() {
  if (!context)
    return;
  api.cuCtxSetCurrentFn(context);
  compare.reset();
  load.reset();
  if (flushBuffer)
    api.cuMemFreeFn(flushBuffer);
  if (gateHost)
    api.cuMemFreeHostFn(const_cast<uint32_t *>(gateHost));
  if (start)
    api.cuEventDestroyFn(start);
  if (stop)
    api.cuEventDestroyFn(stop);
  if (stream)
    api.cuStreamDestroyFn(stream);
  api.cuDevicePrimaryCtxReleaseFn(device);
}

LogicalResult CudaDevice::initialize(std::string &error) {
  auto check = [&](CUresult result, StringRef what) {
    if (result == CUDA_SUCCESS)
      return true;
    error = "no usable CUDA device: " + api.describe(result, what);
    return false;
  };
  if (!check(api.cuDeviceGetFn(&device, 0), "cuDeviceGet") ||
      !check(api.cuDevicePrimaryCtxRetainFn(&context, device),
             "cuDevicePrimaryCtxRetain"))
    return failure();
  if (!check(api.cuCtxSetCurrentFn(context), "cuCtxSetCurrent"))
    return failure();

  char deviceName[256] = {0};
  if (api.cuDeviceGetNameFn(deviceName, sizeof(deviceName), device) ==
      CUDA_SUCCESS)
    name = deviceName;
  int major = 0, minor = 0, l2Bytes = 0;
  if (!check(api.cuDeviceGetAttributeFn(
                 &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
             "cuDeviceGetAttribute") ||
      !check(api.cuDeviceGetAttributeFn(
                 &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device),
             "cuDeviceGetAttribute") ||
      !check(api.cuDeviceGetAttributeFn(
                 &l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device),
             "cuDeviceGetAttribute") ||
      !check(api.cuDeviceGetAttributeFn(
                 &smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device),
             "cuDeviceGetAttribute") ||
      !check(api.cuDeviceGetAttributeFn(
                 &maxSharedOptin,
                 CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device),
             "cuDeviceGetAttribute"))
    return failure();
  arch = CudaArch::forComputeCapability(major, minor);

  // Non-blocking: nothing on the legacy default stream (another library in
  // the process) serialises with the timed work.
  if (!check(api.cuStreamCreateFn(&stream, CU_STREAM_NON_BLOCKING),
             "cuStreamCreate") ||
      !check(api.cuEventCreateFn(&start, CU_EVENT_DEFAULT), "cuEventCreate") ||
      !check(api.cuEventCreateFn(&stop, CU_EVENT_DEFAULT), "cuEventCreate"))
    return failure();

  // Writing twice the L2 evicts whatever a previous run left there.
  flushBytes = std::max<size_t>(2 * size_t(l2Bytes), 16 << 20);
  if (!check(api.cuMemAllocFn(&flushBuffer, flushBytes), "cuMemAlloc"))
    return failure();

  void *gate = nullptr;
  if (api.cuMemHostAllocFn(&gate, 64,
                           CU_MEMHOSTALLOC_DEVICEMAP |
                               CU_MEMHOSTALLOC_PORTABLE) == CUDA_SUCCESS) {
    gateHost = static_cast<volatile uint32_t *>(gate);
    *gateHost = 0;
    if (api.cuMemHostGetDevicePointerFn(&gateDevice, gate, 0) != CUDA_SUCCESS) {
      api.cuMemFreeHostFn(gate);
      gateHost = nullptr;
    }
  }
  return success();
}

LogicalResult CudaDevice::makeCurrent(std::string &error) {
  CUresult result = api.cuCtxSetCurrentFn(context);
  if (result == CUDA_SUCCESS)
    return success();
  error = api.describe(result, "cuCtxSetCurrent");
  return failure();
}

LogicalResult CudaDevice::synchronize(StringRef what, std::string &error) {
  CUresult result = api.cuStreamSynchronizeFn(stream);
  if (result == CUDA_SUCCESS)
    return success();
  // An illegal address or a trap poisons the context: every later call
  // fails too, which is why candidates run in a worker process.
  error =
      (what + " failed: " + api.describe(result, "cuStreamSynchronize")).str();
  return failure();
}

bool CudaDevice::holdAtGate() {
  if (!gateHost)
    return false;
  uint32_t value = ++gateValue;
  if (api.cuStreamWaitValue32Fn(stream, gateDevice, value,
                                CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS)
    return true;
  // Not supported here: run without the gate from now on.
  api.cuMemFreeHostFn(const_cast<uint32_t *>(gateHost));
  gateHost = nullptr;
  return false;
}

void CudaDevice::openGate(bool held) {
  if (held)
    __atomic_store_n(gateHost, gateValue, __ATOMIC_RELEASE);
}

LogicalResult CudaDevice::copyToDevice(CUdeviceptr to, const void *from,
                                       size_t bytes, StringRef what,
                                       std::string &error) {
  CUresult result = api.cuMemcpyHtoDAsyncFn(to, from, bytes, stream);
  if (result == CUDA_SUCCESS)
    return success();
  error = api.describe(result, what);
  return failure();
}

LogicalResult CudaDevice::copyToHost(void *to, CUdeviceptr from, size_t bytes,
                                     StringRef what, std::string &error) {
  CUresult result = api.cuMemcpyDtoHAsyncFn(to, from, bytes, stream);
  if (result == CUDA_SUCCESS)
    return success();
  error = api.describe(result, what);
  return failure();
}

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
};

CudaArgBuffers::~CudaArgBuffers() {
  device->liveBuffers.erase(this);
  if (pointers.empty() && staged.empty())
    return;
  device->api.cuCtxSetCurrentFn(device->context);
  freeStaged();
  for (CUdeviceptr ptr : pointers)
    device->api.cuMemFreeFn(ptr - kGuardBytes);
}

void CudaArgBuffers::freeStaged() {
  for (ArrayRef<CUdeviceptr> set : staged)
    for (CUdeviceptr ptr : set)
      if (ptr)
        device->api.cuMemFreeFn(ptr);
  staged.clear();
}

LogicalResult CudaArgBuffers::stage(ArrayRef<std::vector<HostBuffer>> sets,
                                    std::string &error) {
  if (failed(device->makeCurrent(error)))
    return failure();
  freeStaged();
  // Nothing half staged stays behind a failure.
  auto fail = [&] {
    freeStaged();
    return failure();
  };
  for (const std::vector<HostBuffer> &set : sets) {
    if (failed(checkHostBuffers(specs, set, error)))
      return fail();
    SmallVector<CUdeviceptr> &copies = staged.emplace_back(set.size(), 0);
    for (auto [i, buffer] : llvm::enumerate(set)) {
      if (buffer.bytes.empty())
        continue;
      CUresult result =
          device->api.cuMemAllocFn(&copies[i], buffer.bytes.size());
      if (result != CUDA_SUCCESS) {
        error = device->api.describe(result, "staging an input set");
        return fail();
      }
      if (failed(device->copyToDevice(copies[i], buffer.bytes.data(),
                                      buffer.bytes.size(),
                                      "staging an input set", error)))
        return fail();
    }
    // The host bytes may go once the copies are done.
    if (failed(device->synchronize("staging an input set", error)))
      return fail();
  }
  return success();
}

LogicalResult CudaArgBuffers::restore(unsigned index, std::string &error) {
  if (failed(device->makeCurrent(error)) ||
      failed(enqueueRestore(index, error)))
    return failure();
  return device->synchronize("restoring an input set", error);
}

LogicalResult CudaArgBuffers::enqueueRestore(unsigned index,
                                             std::string &error) {
  if (index >= staged.size()) {
    error = llvm::formatv("no staged input set #{0}", index).str();
    return failure();
  }
  for (auto [i, from] : llvm::enumerate(staged[index])) {
    if (!from)
      continue;
    CUresult result = device->api.cuMemcpyAsyncFn(
        pointers[i], from, size_t(specs[i].sizeInBytes()), device->stream);
    if (result != CUDA_SUCCESS) {
      error = device->api.describe(result, "restoring an input set");
      return failure();
    }
  }
  return success();
}

FailureOr<SmallVector<unsigned>>
CudaArgBuffers::findChangedInputs(unsigned index, std::string &error) {
  if (index >= staged.size()) {
    error = llvm::formatv("no staged input set #{0}", index).str();
    return failure();
  }
  if (failed(device->makeCurrent(error)))
    return failure();
  if (!device->compare)
    device->compare = std::make_unique<CudaBufferCompare>(device->api);
  CudaBufferCompare &compare = *device->compare;
  if (failed(compare.prepare(unsigned(specs.size()), error)) ||
      failed(compare.clearFlags(device->stream, error)))
    return failure();
  for (auto [i, spec] : llvm::enumerate(specs))
    if (!spec.isOutput &&
        failed(compare.enqueue(pointers[i], staged[index][i],
                               size_t(spec.sizeInBytes()), unsigned(i),
                               device->stream, error)))
      return failure();
  SmallVector<uint32_t> flags;
  if (failed(compare.readFlags(device->stream, flags, error)))
    return failure();
  SmallVector<unsigned> changed;
  for (auto [i, spec] : llvm::enumerate(specs))
    if (!spec.isOutput && flags[i])
      changed.push_back(unsigned(i));
  return changed;
}

LogicalResult CudaArgBuffers::allocate(std::string &error) {
  for (const ArgSpec &spec : specs) {
    CUdeviceptr ptr = 0;
    // cuMemAlloc rejects zero bytes; an empty argument still gets a pointer.
    size_t bytes = std::max<int64_t>(spec.sizeInBytes(), 1) + 2 * kGuardBytes;
    CUresult result = device->api.cuMemAllocFn(&ptr, bytes);
    if (result != CUDA_SUCCESS) {
      error = device->api.describe(
          result, llvm::formatv("cuMemAlloc({0} bytes)", bytes).str());
      return failure();
    }
    pointers.push_back(ptr + kGuardBytes);
    if (failed(resetGuards(pointers.size() - 1, error)))
      return failure();
  }
  return success();
}

LogicalResult CudaArgBuffers::resetGuards(size_t i, std::string &error) {
  SmallVector<uint8_t> guard(kGuardBytes);
  for (bool after : {false, true}) {
    fillGuardPattern(guard, unsigned(i), after);
    CUdeviceptr at = after ? pointers[i] + specs[i].sizeInBytes()
                           : pointers[i] - kGuardBytes;
    // The pattern lives on the stack: wait before it goes.
    if (failed(device->copyToDevice(at, guard.data(), guard.size(),
                                    "cuMemcpyHtoDAsync (guard)", error)) ||
        failed(device->synchronize("guard upload", error)))
      return failure();
  }
  return success();
}

LogicalResult CudaArgBuffers::downloadArg(unsigned index, HostBuffer &host,
                                          std::string &error) {
  if (index >= specs.size()) {
    error = llvm::formatv("download: no argument #{0}", index).str();
    return failure();
  }
  if (failed(device->makeCurrent(error)))
    return failure();
  host.bytes.resize(specs[index].sizeInBytes());
  if (host.bytes.empty())
    return success();
  if (failed(device->copyToHost(host.bytes.data(), pointers[index],
                                host.bytes.size(), "cuMemcpyDtoHAsync", error)))
    return failure();
  return device->synchronize("download", error);
}

FailureOr<std::string> CudaArgBuffers::checkGuards(std::string &error) {
  if (failed(device->makeCurrent(error)))
    return failure();
  std::string damage;
  SmallVector<uint8_t> before(kGuardBytes), after(kGuardBytes);
  for (size_t i = 0; i < pointers.size(); ++i) {
    CUdeviceptr end = pointers[i] + specs[i].sizeInBytes();
    StringRef what = "cuMemcpyDtoHAsync (guard)";
    if (failed(device->copyToHost(before.data(), pointers[i] - kGuardBytes,
                                  kGuardBytes, what, error)) ||
        failed(
            device->copyToHost(after.data(), end, kGuardBytes, what, error)) ||
        failed(device->synchronize("guard download", error)))
      return failure();
    std::string d = describeGuardDamage(before, after, unsigned(i));
    if (d.empty())
      continue;
    damage += (damage.empty() ? "" : "\n") + d;
    if (failed(resetGuards(i, error)))
      return failure();
  }
  return damage;
}

LogicalResult CudaArgBuffers::upload(ArrayRef<HostBuffer> host,
                                     std::string &error) {
  if (failed(checkHostBuffers(specs, host, error)) ||
      failed(device->makeCurrent(error)))
    return failure();
  for (auto [i, buffer] : llvm::enumerate(host)) {
    if (buffer.bytes.empty())
      continue;
    if (failed(device->copyToDevice(pointers[i], buffer.bytes.data(),
                                    buffer.bytes.size(), "cuMemcpyHtoDAsync",
                                    error)))
      return failure();
  }
  return device->synchronize("upload", error);
}

LogicalResult CudaArgBuffers::download(MutableArrayRef<HostBuffer> host,
                                       std::string &error) {
  if (failed(checkHostBuffers(specs, host, error)) ||
      failed(device->makeCurrent(error)))
    return failure();
  for (auto [i, buffer] : llvm::enumerate(host)) {
    if (buffer.bytes.empty())
      continue;
    // Queued on the kernels' stream, so it reads what they wrote.
    if (failed(device->copyToHost(buffer.bytes.data(), pointers[i],
                                  buffer.bytes.size(), "cuMemcpyDtoHAsync",
                                  error)))
      return failure();
  }
  return device->synchronize("download", error);
}

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
  /// Whether enqueue only launches kernels on the stream (nothing that
  /// waits for it): such runs are timed behind the gate (CudaDevice).
  virtual bool enqueuesOnlyLaunches() const { return false; }
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

FailureOr<CudaArgBuffers *> CudaKernel::getArgs(ArgBuffers &args,
                                                std::string &error) {
  if (!device->liveBuffers.contains(&args)) {
    error = "argument buffers were not allocated by this cuda target";
    return failure();
  }
  auto *cudaArgs = static_cast<CudaArgBuffers *>(&args);
  if (cudaArgs->pointers.size() != numArgs) {
    error = llvm::formatv("the kernel takes {0} arguments, the buffers hold "
                          "{1}",
                          numArgs, cudaArgs->pointers.size())
                .str();
    return failure();
  }
  return cudaArgs;
}

LogicalResult CudaKernel::run(ArgBuffers &args, std::string &error) {
  FailureOr<CudaArgBuffers *> cudaArgs = getArgs(args, error);
  if (failed(cudaArgs) || failed(device->makeCurrent(error)))
    return failure();
  std::string enqueueError;
  bool enqueued = succeeded(enqueue(**cudaArgs, enqueueError));
  return finishQueued(enqueued, std::move(enqueueError), error);
}

LogicalResult CudaKernel::finishQueued(bool enqueued, std::string enqueueError,
                                       std::string &error) {
  // Wait even when queueing failed half way: kernels already queued must
  // not run into the next upload.
  std::string syncError;
  bool synced = succeeded(device->synchronize("kernel", syncError));
  finishRun();
  if (!enqueued) {
    error = std::move(enqueueError);
    return failure();
  }
  if (!synced) {
    error = std::move(syncError);
    return failure();
  }
  return success();
}

/// An MLIR candidate: JIT-compiled host code that launches PTX kernels.
class MlirCudaKernel : public CudaKernel {
public:
  MlirCudaKernel(std::shared_ptr<CudaDevice> device, size_t numArgs)
      : CudaKernel(std::move(device), numArgs),
        state(this->device->api, this->device->stream) {}
  ~MlirCudaKernel() override;

  LogicalResult enqueue(CudaArgBuffers &args, std::string &error) override;
  void finishRun() override { state.releaseAllocations(); }

  CudaRuntimeState state;
  std::unique_ptr<ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  /// Rank of each memref argument: the entry takes each as a descriptor
  /// (allocated, aligned, offset, sizes, strides).
  SmallVector<SmallVector<int64_t>> shapes;
};

MlirCudaKernel::~MlirCudaKernel() {
  device->api.cuCtxSetCurrentFn(device->context);
  // The engine's global destructors unload the kernel modules through
  // mgpuModuleUnload, which needs the state.
  CudaRuntimeScope scope(state);
  engine.reset();
  state.releaseAll();
}

LogicalResult MlirCudaKernel::enqueue(CudaArgBuffers &args,
                                      std::string &error) {
  // One slot per descriptor field; pointers fit in an int64_t slot.
  SmallVector<int64_t> slots;
  for (auto [ptr, shape] : llvm::zip(args.pointers, shapes)) {
    slots.push_back(int64_t(ptr));
    slots.push_back(int64_t(ptr));
    slots.push_back(0);
    slots.append(shape.begin(), shape.end());
    int64_t stride = 1;
    SmallVector<int64_t> strides(shape.size());
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      strides[d] = stride;
      stride *= shape[d];
    }
    slots.append(strides.begin(), strides.end());
  }
  SmallVector<void *> packed;
  for (int64_t &slot : slots)
    packed.push_back(&slot);

  CudaRuntimeScope scope(state);
  entry(packed.data());
  if (state.hasError()) {
    error = state.takeError();
    return failure();
  }
  return success();
}

/// A CUDA C++ candidate: an NVRTC-built module and its launches.
class SourceCudaKernel : public CudaKernel {
public:
  struct Launch {
    CUfunction function = nullptr;
    CudaLaunch config;
  };
  using CudaKernel::CudaKernel;
  ~SourceCudaKernel() override {
    if (!module)
      return;
    device->api.cuCtxSetCurrentFn(device->context);
    device->api.cuModuleUnloadFn(module);
  }

  LogicalResult enqueue(CudaArgBuffers &args, std::string &error) override;
  bool enqueuesOnlyLaunches() const override { return true; }

  CUmodule module = nullptr;
  SmallVector<Launch> launches;
};

LogicalResult SourceCudaKernel::enqueue(CudaArgBuffers &args,
                                        std::string &error) {
  SmallVector<CUdeviceptr> pointers(args.pointers.begin(), args.pointers.end());
  SmallVector<void *> params;
  for (CUdeviceptr &ptr : pointers)
    params.push_back(&ptr);
  for (const Launch &launch : launches) {
    const CudaLaunch &c = launch.config;
    CUresult result = device->api.cuLaunchKernelFn(
        launch.function, c.grid[0], c.grid[1], c.grid[2], c.block[0],
        c.block[1], c.block[2], c.sharedBytes, device->stream, params.data(),
        nullptr);
    if (result != CUDA_SUCCESS) {
      error = device->api.describe(
          result, llvm::formatv("cuLaunchKernel({0})", c.kernel).str());
      return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

class CudaTarget : public Target {
public:
  CudaTarget(std::shared_ptr<CudaDevice> device, std::string reason)
      : device(std::move(device)), reason(std::move(reason)) {}

  StringRef getName() const override { return "cuda"; }
  std::string getDeviceName() const override {
    if (!device)
      return "";
    return "cuda:" + device->arch.chip + ":" + device->name;
  }
  std::string getUnavailableReason() const override { return reason; }
  unsigned getDeviceCount() const override {
    std::string why;
    const CudaDriverApi *api = device ? CudaDriverApi::get(why) : nullptr;
    int count = 0;
    if (!api || api->cuDeviceGetCountFn(&count) != CUDA_SUCCESS)
      return 0;
    return unsigned(count);
  }

  FailureOr<std::unique_ptr<ArgBuffers>>
  allocate(const KernelSignature &signature, std::string &error) override;
  FailureOr<std::unique_ptr<CompiledKernel>>
  compile(ModuleOp module, const KernelSignature &signature,
          std::string &error) override;
  FailureOr<double> timeRun(CompiledKernel &kernel, ArgBuffers &args,
                            const TimingRunOptions &options,
                            std::string &error) override;
  LogicalResult runRescheduled(CompiledKernel &kernel, ArgBuffers &args,
                               unsigned variant, std::string &error) override;
  LogicalResult runBackToBack(CompiledKernel &kernel, ArgBuffers &args,
                              unsigned first, unsigned second,
                              std::string &error) override;

private:
  LogicalResult checkUsable(std::string &error) const;
  /// `kernel` as this target's own (usable, and compiled by it).
  FailureOr<CudaKernel *> getOwnKernel(CompiledKernel &kernel,
                                       std::string &error) const;
  FailureOr<std::unique_ptr<CompiledKernel>>
  compileMlir(ModuleOp module, const KernelSignature &signature,
              std::string &error);
  FailureOr<std::unique_ptr<CompiledKernel>>
  compileSource(func::FuncOp entry, const KernelSignature &signature,
                std::string &error);

  std::shared_ptr<CudaDevice> device;
  std::string reason;
};

LogicalResult CudaTarget::checkUsable(std::string &error) const {
  if (reason.empty())
    return device->makeCurrent(error);
  error = reason;
  return failure();
}

FailureOr<std::unique_ptr<ArgBuffers>>
CudaTarget::allocate(const KernelSignature &signature, std::string &error) {
  if (failed(checkUsable(error)))
    return failure();
  auto buffers = std::make_unique<CudaArgBuffers>(device, signature);
  if (failed(buffers->allocate(error)))
    return failure();
  return std::unique_ptr<ArgBuffers>(std::move(buffers));
}

FailureOr<std::unique_ptr<CompiledKernel>>
CudaTarget::compile(ModuleOp module, const KernelSignature &signature,
                    std::string &error) {
  if (failed(checkUsable(error)))
    return failure();
  auto entry = module.lookupSymbol<func::FuncOp>(signature.entry);
  if (!entry) {
    error = llvm::formatv("no function named '{0}'", signature.entry).str();
    return failure();
  }
  if (entry.getNumArguments() != signature.args.size()) {
    error = llvm::formatv("'{0}' takes {1} arguments, the signature has {2}",
                          signature.entry, entry.getNumArguments(),
                          signature.args.size())
                .str();
    return failure();
  }
  if (hasCudaSource(entry))
    return compileSource(entry, signature, error);
  return compileMlir(module, signature, error);
}

/// Translates the lowered module to LLVM IR, refusing references to
/// symbols that neither stark's mgpu* set nor the runtime allow-list of
/// LoweredGuards.h provides: the ORC JIT would resolve them from the whole
/// process (all of libc).
static std::unique_ptr<llvm::Module>
buildHostModule(Operation *op, llvm::LLVMContext &llvmContext,
                std::string &error) {
  std::unique_ptr<llvm::Module> module =
      translateModuleToLLVMIR(op, llvmContext, "stark-cuda-host");
  if (!module) {
    error = "translating the host code to LLVM IR failed";
    return nullptr;
  }
  const llvm::StringMap<void *> &runtime = getCudaRuntimeSymbols();
  auto provided = [&](StringRef name) {
    return runtime.contains(name) || isHostRuntimeSymbol(name);
  };
  if (failed(checkLinkedSymbols(*module, provided, error)))
    return nullptr;
  return module;
}

FailureOr<std::unique_ptr<CompiledKernel>>
CudaTarget::compileMlir(ModuleOp module, const KernelSignature &signature,
                        std::string &error) {
  std::string entryName = signature.entry;
  if (failed(lowerModuleForCuda(module, device->arch, error)) ||
      failed(checkLoweredCudaCandidate(module, error)))
    return failure();
  auto lowered = module.lookupSymbol<LLVM::LLVMFuncOp>(entryName);
  size_t expectedArgs = 0;
  for (const ArgSpec &spec : signature.args)
    expectedArgs += 3 + 2 * spec.shape.size();
  if (!lowered || lowered.isExternal() ||
      lowered.getNumArguments() != expectedArgs) {
    error = llvm::formatv("the lowered entry '{0}' does not take the "
                          "expanded memref descriptors of its signature",
                          entryName)
                .str();
    return failure();
  }

  auto kernel = std::make_unique<MlirCudaKernel>(device, signature.args.size());
  for (const ArgSpec &spec : signature.args)
    kernel->shapes.push_back(spec.shape);

  std::string buildError;
  auto builder = [&](Operation *op, llvm::LLVMContext &llvmContext) {
    return buildHostModule(op, llvmContext, buildError);
  };
  ExecutionEngineOptions options;
  options.llvmModuleBuilder = builder;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  llvm::Expected<std::unique_ptr<ExecutionEngine>> engine =
      ExecutionEngine::create(module, options);
  if (!engine) {
    error =
        buildError.empty() ? llvm::toString(engine.takeError()) : buildError;
    if (!buildError.empty())
      llvm::consumeError(engine.takeError());
    return failure();
  }
  kernel->engine = std::move(*engine);
  kernel->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    for (const auto &entry : getCudaRuntimeSymbols())
      map[interner(entry.getKey())] = {
          llvm::orc::ExecutorAddr::fromPtr(entry.getValue()),
          llvm::JITSymbolFlags::Exported};
    return map;
  });

  {
    // The global constructors load the PTX modules: the driver's JIT errors
    // surface here, as compile errors.
    CudaRuntimeScope scope(kernel->state);
    kernel->engine->initialize();
    if (kernel->state.hasError()) {
      error = kernel->state.takeError();
      return failure();
    }
  }
  llvm::Expected<void (*)(void **)> fn =
      kernel->engine->lookupPacked(entryName);
  if (!fn) {
    error = llvm::toString(fn.takeError());
    return failure();
  }
  kernel->entry = *fn;
  return std::unique_ptr<CompiledKernel>(std::move(kernel));
}

FailureOr<std::unique_ptr<CompiledKernel>>
CudaTarget::compileSource(func::FuncOp entry, const KernelSignature &signature,
                          std::string &error) {
  FailureOr<CudaSourceCandidate> source = parseCudaSource(entry, error);
  if (failed(source))
    return failure();
  SmallVector<std::string> names;
  for (const CudaLaunch &launch : source->launches)
    if (!llvm::is_contained(names, launch.kernel))
      names.push_back(launch.kernel);
  FailureOr<NvrtcOutput> built = compileCudaSourceWithNvrtc(
      source->source, names, device->arch.chip, source->options, error);
  if (failed(built))
    return failure();
  unsigned numInputs = llvm::count_if(
      signature.args, [](const ArgSpec &arg) { return !arg.isOutput; });
  if (failed(checkModelWrittenPtx(*source, *built, numInputs, error)))
    return failure();

  const CudaDriverApi &api = device->api;
  auto kernel =
      std::make_unique<SourceCudaKernel>(device, signature.args.size());
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
  const std::string &image = built->cubin.empty() ? built->ptx : built->cubin;
  CUresult result = api.cuModuleLoadDataExFn(&kernel->module, image.data(), 2,
                                             options, values);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "cuModuleLoadDataEx");
    if (log[0])
      error += llvm::formatv("\nJIT log:\n{0}", log).str();
    return failure();
  }

  for (const CudaLaunch &launch : source->launches) {
    SourceCudaKernel::Launch compiled;
    compiled.config = launch;
    std::string symbol = built->loweredNames.lookup(launch.kernel);
    result = api.cuModuleGetFunctionFn(&compiled.function, kernel->module,
                                       symbol.c_str());
    if (result != CUDA_SUCCESS) {
      error = api.describe(
          result,
          llvm::formatv("cuModuleGetFunction({0})", launch.kernel).str());
      return failure();
    }
    int maxThreads = 0, staticShared = 0;
    api.cuFuncGetAttributeFn(&maxThreads,
                             CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                             compiled.function);
    api.cuFuncGetAttributeFn(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                             compiled.function);
    int64_t threads = launch.block[0] * launch.block[1] * launch.block[2];
    if (maxThreads > 0 && threads > maxThreads) {
      error = llvm::formatv("launch of {0}: {1} threads per block, the "
                            "kernel allows at most {2} (registers or "
                            "__launch_bounds__)",
                            launch.kernel, threads, maxThreads)
                  .str();
      return failure();
    }
    if (launch.grid[1] > 65535 || launch.grid[2] > 65535 ||
        launch.grid[0] > 0x7fffffff) {
      error = llvm::formatv("launch of {0}: grid exceeds the device's limits "
                            "(x < 2^31, y and z <= 65535)",
                            launch.kernel)
                  .str();
      return failure();
    }
    if (staticShared + launch.sharedBytes > device->maxSharedOptin) {
      error = llvm::formatv("launch of {0}: {1} bytes of shared memory "
                            "({2} static + {3} dynamic), the device allows "
                            "{4} per block",
                            launch.kernel, staticShared + launch.sharedBytes,
                            staticShared, launch.sharedBytes,
                            device->maxSharedOptin)
                  .str();
      return failure();
    }
    if (launch.sharedBytes > 48 * 1024) {
      result = api.cuFuncSetAttributeFn(
          compiled.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
          int(launch.sharedBytes));
      if (result != CUDA_SUCCESS) {
        error = api.describe(result, "cuFuncSetAttribute(" + launch.kernel +
                                         ", MAX_DYNAMIC_SHARED_SIZE_BYTES)");
        return failure();
      }
    }
    kernel->launches.push_back(std::move(compiled));
  }
  return std::unique_ptr<CompiledKernel>(std::move(kernel));
}

LogicalResult CudaTarget::runRescheduled(CompiledKernel &kernel,
                                         ArgBuffers &args, unsigned variant,
                                         std::string &error) {
  if (failed(checkUsable(error)) || failed(device->makeCurrent(error)))
    return failure();
  if (!device->load)
    device->load = std::make_unique<CudaDeviceLoad>(device->api);
  if (failed(device->load->start(variant, unsigned(device->smCount), error)))
    return failure();
  std::string runError, loadError;
  LogicalResult ran = kernel.run(args, runError);
  LogicalResult loaded = device->load->finish(loadError);
  if (failed(ran)) {
    error = std::move(runError);
    return failure();
  }
  if (failed(loaded)) {
    error = std::move(loadError);
    return failure();
  }
  return success();
}

FailureOr<CudaKernel *> CudaTarget::getOwnKernel(CompiledKernel &kernel,
                                                 std::string &error) const {
  if (failed(checkUsable(error)))
    return failure();
  if (!device->liveKernels.contains(&kernel)) {
    error = "the kernel was not compiled by this cuda target";
    return failure();
  }
  return static_cast<CudaKernel *>(&kernel);
}

LogicalResult CudaTarget::runBackToBack(CompiledKernel &kernel,
                                        ArgBuffers &args, unsigned first,
                                        unsigned second, std::string &error) {
  FailureOr<CudaKernel *> own = getOwnKernel(kernel, error);
  if (failed(own))
    return failure();
  CudaKernel &cudaKernel = **own;
  // A lowered host program may wait on the stream itself: its runs go one
  // after the other.
  if (!cudaKernel.enqueuesOnlyLaunches())
    return Target::runBackToBack(kernel, args, first, second, error);
  FailureOr<CudaArgBuffers *> cudaArgs = cudaKernel.getArgs(args, error);
  if (failed(cudaArgs) || failed(device->makeCurrent(error)))
    return failure();
  // Both restores and both runs are queued before the stream may start,
  // so that the device runs them one after the other with no host work or
  // wait in between (another process's work on the device aside).
  bool gated = device->holdAtGate();
  std::string enqueueError;
  bool enqueued =
      succeeded((*cudaArgs)->enqueueRestore(first, enqueueError)) &&
      succeeded(cudaKernel.enqueue(**cudaArgs, enqueueError)) &&
      succeeded((*cudaArgs)->enqueueRestore(second, enqueueError)) &&
      succeeded(cudaKernel.enqueue(**cudaArgs, enqueueError));
  device->openGate(gated);
  return cudaKernel.finishQueued(enqueued, std::move(enqueueError), error);
}

FailureOr<double> CudaTarget::timeRun(CompiledKernel &kernel, ArgBuffers &args,
                                      const TimingRunOptions &options,
                                      std::string &error) {
  FailureOr<CudaKernel *> own = getOwnKernel(kernel, error);
  if (failed(own))
    return failure();
  CudaKernel &cudaKernel = **own;
  FailureOr<CudaArgBuffers *> cudaArgs = cudaKernel.getArgs(args, error);
  if (failed(cudaArgs))
    return failure();

  const CudaDriverApi &api = device->api;
  auto check = [&](CUresult result, StringRef what) {
    if (result == CUDA_SUCCESS)
      return true;
    error = api.describe(result, what);
    return false;
  };
  if (options.flushCache &&
      !check(api.cuMemsetD8AsyncFn(device->flushBuffer, 0, device->flushBytes,
                                   device->stream),
             "cuMemsetD8Async (L2 flush)"))
    return failure();
  // Launch lists hold the stream at the gate until they are enqueued; a
  // lowered host program may wait on the stream itself, so it is not held.
  bool gated = cudaKernel.enqueuesOnlyLaunches() && device->holdAtGate();
  auto openGate = [&] { device->openGate(gated); };
  if (!check(api.cuEventRecordFn(device->start, device->stream),
             "cuEventRecord")) {
    openGate();
    return failure();
  }
  std::string enqueueError;
  bool enqueued = succeeded(cudaKernel.enqueue(**cudaArgs, enqueueError));
  bool recorded =
      check(api.cuEventRecordFn(device->stop, device->stream), "cuEventRecord");
  openGate();
  if (failed(
          cudaKernel.finishQueued(enqueued, std::move(enqueueError), error)) ||
      !recorded)
    return failure();
  float ms = 0;
  if (!check(api.cuEventElapsedTimeFn(&ms, device->start, device->stop),
             "cuEventElapsedTime"))
    return failure();
  return double(ms) * 1e-3;
}

} // namespace

std::unique_ptr<Target> mlir::stark::createCudaTarget(MLIRContext &context) {
  // Candidates are parsed, lowered and JIT-compiled in this context.
  DialectRegistry registry;
  registerCudaTargetDialects(registry);
  context.appendDialectRegistry(registry);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  initializeNvptxBackend();

  std::string reason;
  const CudaDriverApi *api = CudaDriverApi::get(reason);
  if (!api)
    return std::make_unique<CudaTarget>(nullptr, reason);
  auto device = std::make_shared<CudaDevice>(*api);
  if (failed(device->initialize(reason)))
    return std::make_unique<CudaTarget>(nullptr, reason);
  return std::make_unique<CudaTarget>(std::move(device), "");
}
