//===- CudaDeviceLoad.cpp - Keep part of a GPU busy beside a run ----------===//

#include "stark/Target/CudaDeviceLoad.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <thread>

using namespace mlir;
using namespace mlir::stark;

static constexpr const char kDeviceLoadPtx[] = R"PTX(
.version 7.5
.target sm_75
.address_size 64

.visible .entry stark_hold_sms(
    .param .u64 p_started, .param .u32 p_generation, .param .u64 p_hold_ns)
{
  .reg .pred %p<3>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<9>;

  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L_wait;
  ld.param.u64 %rd1, [p_started];
  ld.param.u32 %r2, [p_generation];
  ld.param.u64 %rd2, [p_hold_ns];
  mov.u64 %rd3, %globaltimer;
  mov.u32 %r3, %ctaid.x;
  mul.wide.u32 %rd4, %r3, 4;
  add.u64 %rd5, %rd1, %rd4;
  st.volatile.u32 [%rd5], %r2;
  membar.sys;
$L_spin:
  mov.u64 %rd6, %globaltimer;
  sub.u64 %rd7, %rd6, %rd3;
  setp.lt.u64 %p2, %rd7, %rd2;
  @%p2 bra $L_spin;
$L_wait:
  bar.sync 0;
  ret;
}
)PTX";

StringRef mlir::stark::getDeviceLoadPtx() { return kDeviceLoadPtx; }

DeviceLoadShape mlir::stark::getDeviceLoadShape(unsigned variant,
                                                unsigned smCount) {
  // Between a quarter and nine tenths of the SMs (two blocks of 1024
  // threads fill an SM's thread slots), for 50 to 400 microseconds.
  unsigned sms = std::max(1u, smCount);
  unsigned least = std::max(1u, sms / 4);
  unsigned range = std::max(1u, sms * 9 / 10 - least + 1);
  DeviceLoadShape shape;
  shape.blocks = 2 * (least + (variant * 37u) % range);
  shape.holdNanoseconds = 50'000ull * (1 + (variant * 5u) % 8);
  return shape;
}

CudaDeviceLoad::~CudaDeviceLoad() {
  // The caller keeps the context current while it tears its device down.
  if (stream) {
    api.cuStreamSynchronizeFn(stream);
    api.cuStreamDestroyFn(stream);
  }
  if (startedHost)
    api.cuMemFreeHostFn(const_cast<uint32_t *>(startedHost));
  if (module)
    api.cuModuleUnloadFn(module);
}

LogicalResult CudaDeviceLoad::prepare(unsigned blocks, std::string &error) {
  auto check = [&](CUresult result, StringRef what) {
    if (result == CUDA_SUCCESS)
      return true;
    error = api.describe(result, what);
    return false;
  };
  if (!module &&
      (!check(api.cuModuleLoadDataExFn(&module, kDeviceLoadPtx, 0, nullptr,
                                       nullptr),
              "loading the device load kernel") ||
       !check(api.cuModuleGetFunctionFn(&function, module, "stark_hold_sms"),
              "cuModuleGetFunction(stark_hold_sms)")))
    return failure();
  if (!stream && !check(api.cuStreamCreateFn(&stream, CU_STREAM_NON_BLOCKING),
                        "cuStreamCreate (device load)"))
    return failure();
  if (blocks <= capacity)
    return success();
  if (startedHost)
    api.cuMemFreeHostFn(const_cast<uint32_t *>(startedHost));
  startedHost = nullptr;
  capacity = 0;
  void *host = nullptr;
  if (!check(api.cuMemHostAllocFn(&host, sizeof(uint32_t) * blocks,
                                  CU_MEMHOSTALLOC_DEVICEMAP |
                                      CU_MEMHOSTALLOC_PORTABLE),
             "cuMemHostAlloc (device load)"))
    return failure();
  startedHost = static_cast<volatile uint32_t *>(host);
  for (unsigned b = 0; b < blocks; ++b)
    startedHost[b] = 0;
  if (!check(api.cuMemHostGetDevicePointerFn(&startedDevice, host, 0),
             "cuMemHostGetDevicePointer (device load)"))
    return failure();
  capacity = blocks;
  return success();
}

LogicalResult CudaDeviceLoad::start(unsigned variant, unsigned smCount,
                                    std::string &error) {
  DeviceLoadShape shape = getDeviceLoadShape(variant, smCount);
  if (failed(prepare(shape.blocks, error)))
    return failure();
  uint32_t gen = ++generation;
  unsigned long long hold = shape.holdNanoseconds;
  void *params[] = {&startedDevice, &gen, &hold};
  CUresult result =
      api.cuLaunchKernelFn(function, shape.blocks, 1, 1, kDeviceLoadThreads, 1,
                           1, 0, stream, params, nullptr);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "cuLaunchKernel(stark_hold_sms)");
    return failure();
  }
  // Until every block runs, or the wait is over (another process's work
  // may hold the SMs): either way the run goes ahead.
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  for (unsigned b = 0; b < shape.blocks;) {
    if (__atomic_load_n(&startedHost[b], __ATOMIC_ACQUIRE) == gen) {
      ++b;
      continue;
    }
    if (std::chrono::steady_clock::now() > deadline)
      break;
    std::this_thread::yield();
  }
  return success();
}

LogicalResult CudaDeviceLoad::finish(std::string &error) {
  CUresult result = api.cuStreamSynchronizeFn(stream);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "waiting for the device load");
    return failure();
  }
  return success();
}
