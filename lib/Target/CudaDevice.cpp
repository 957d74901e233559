//===- CudaDevice.cpp - The GPU, its stream, events and timing gate -------===//

#include "CudaTargetInternal.h"

#include <chrono>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatarget;

/// Success, or `error` says which call (`what`) the driver refused and why.
static LogicalResult check(const CudaDriverApi &api, CUresult result,
                           StringRef what, std::string &error) {
  if (result == CUDA_SUCCESS)
    return success();
  error = api.describe(result, what);
  return failure();
}

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
  std::pair<int *, CUdevice_attribute> attributes[] = {
      {&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
      {&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
      {&smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {&maxSharedOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN}};
  for (auto [value, attribute] : attributes)
    if (!check(api.cuDeviceGetAttributeFn(value, attribute, device),
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
  return check(api, api.cuCtxSetCurrentFn(context), "cuCtxSetCurrent", error);
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

GateWatchdog::GateWatchdog(CudaDevice &device, double seconds)
    : device(device) {
  thread = std::thread([this, seconds] {
    std::unique_lock<std::mutex> lock(mutex);
    if (wake.wait_for(lock, std::chrono::duration<double>(seconds),
                      [this] { return disarmed; }))
      return;
    fired = true;
    this->device.openGate(/*held=*/true);
  });
}

bool GateWatchdog::disarm() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    disarmed = true;
  }
  wake.notify_one();
  if (thread.joinable())
    thread.join();
  return fired;
}

LogicalResult CudaDevice::copyToDevice(CUdeviceptr to, const void *from,
                                       size_t bytes, StringRef what,
                                       std::string &error) {
  return check(api, api.cuMemcpyHtoDAsyncFn(to, from, bytes, stream), what,
               error);
}

LogicalResult CudaDevice::copyToHost(void *to, CUdeviceptr from, size_t bytes,
                                     StringRef what, std::string &error) {
  return check(api, api.cuMemcpyDtoHAsyncFn(to, from, bytes, stream), what,
               error);
}
