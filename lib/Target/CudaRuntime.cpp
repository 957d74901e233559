//===- CudaRuntime.cpp - The mgpu* functions for JIT-compiled host code ---===//
//
// Signatures follow what MLIR 22 emits: gpu-to-llvm (allocation, copies,
// streams, events) and the gpu.binary / gpu.launch_func translation (module
// loads, kernel launches).
//
//===----------------------------------------------------------------------===//

#include "stark/Target/CudaRuntime.h"
#include "stark/Target/CudaCompile.h"
#include "stark/Target/CudaTensorMaps.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

using namespace mlir;
using namespace mlir::stark;

static thread_local CudaRuntimeState *activeState = nullptr;

CudaRuntimeState::~CudaRuntimeState() { releaseAll(); }

void CudaRuntimeState::recordError(std::string message) {
  if (error.empty())
    error = std::move(message);
}

bool CudaRuntimeState::check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  recordError(api.describe(result, what));
  return false;
}

bool CudaRuntimeState::beforeWait(const char *what) {
  openGateBeforeWait();
  if (!capturing)
    return true;
  recordError(llvm::formatv("the host program cannot be captured as a CUDA "
                            "graph: it waits for the device ({0}) while it "
                            "runs",
                            what));
  return false;
}

void CudaRuntimeState::releaseAllocations() {
  for (auto [ptr, size] : allocations)
    pool.emplace(size, ptr);
  allocations.clear();
}

void CudaRuntimeState::forgetModule(CUmodule module) {
  auto it = functions.find(module);
  if (it == functions.end())
    return;
  for (auto &entry : it->second)
    sharedLimits.erase(entry.second);
  functions.erase(it);
}

void CudaRuntimeState::releaseAll() {
  releaseAllocations();
  functions.clear();
  sharedLimits.clear();
  for (auto [size, ptr] : pool)
    api.cuMemFreeFn(ptr);
  pool.clear();
  for (auto &entry : globals)
    api.cuMemFreeFn(entry.second.first);
  globals.clear();
  for (auto &entry : tensorMaps)
    api.cuMemFreeFn(entry.second);
  tensorMaps.clear();
  for (CUevent event : events)
    api.cuEventDestroyFn(event);
  events.clear();
  for (CUmodule module : modules)
    api.cuModuleUnloadFn(module);
  modules.clear();
}

CudaRuntimeScope::CudaRuntimeScope(CudaRuntimeState &state)
    : previous(activeState) {
  activeState = &state;
}

CudaRuntimeScope::~CudaRuntimeScope() { activeState = previous; }

/// The state of the running kernel; null only if JIT-compiled code runs
/// outside a CudaRuntimeScope, which the target never does.
static CudaRuntimeState *state() { return activeState; }

static CUstream streamOrDefault(CudaRuntimeState *s, void *stream) {
  return stream ? static_cast<CUstream>(stream) : s->stream;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

static void *loadModule(const void *data, bool jit, int optLevel) {
  CudaRuntimeState *s = state();
  if (!s || !data || !s->beforeWait("a module load"))
    return nullptr;
  char log[8192] = {0};
  SmallVector<CUjit_option> options = {CU_JIT_ERROR_LOG_BUFFER,
                                       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  SmallVector<void *> values = {log, reinterpret_cast<void *>(sizeof(log))};
  if (jit) {
    options.push_back(CU_JIT_OPTIMIZATION_LEVEL);
    values.push_back(reinterpret_cast<void *>(
        static_cast<intptr_t>(std::clamp(optLevel, 0, 4))));
  }
  CUmodule module = nullptr;
  CUresult result = s->api.cuModuleLoadDataExFn(&module, data, options.size(),
                                                options.data(), values.data());
  if (result != CUDA_SUCCESS) {
    std::string message = s->api.describe(result, "cuModuleLoadDataEx");
    if (log[0])
      message += llvm::formatv("\nJIT log:\n{0}", log).str();
    s->recordError(std::move(message));
    return nullptr;
  }
  // A handle the driver hands out again starts with no kernels looked up.
  s->forgetModule(module);
  s->modules.insert(module);
  return module;
}

static void *mgpuModuleLoad(void *data, size_t /*size*/) {
  return loadModule(data, /*jit=*/false, 0);
}

static void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return loadModule(data, /*jit=*/true, optLevel);
}

/// Destroys `handle` with the driver's `destroy` where the state still owns
/// it (it is in the state's set `owned`); a null handle, one of another
/// state or one destroyed already is left alone.
template <typename Handle, typename Destroy>
static void destroyOwned(void *handle,
                         llvm::DenseSet<Handle> CudaRuntimeState::*owned,
                         Destroy CudaDriverApi::*destroy) {
  CudaRuntimeState *s = state();
  if (!s || !handle)
    return;
  auto h = static_cast<Handle>(handle);
  if ((s->*owned).erase(h))
    (s->api.*destroy)(h);
}

static void mgpuModuleUnload(void *module) {
  if (CudaRuntimeState *s = state())
    s->forgetModule(static_cast<CUmodule>(module));
  destroyOwned(module, &CudaRuntimeState::modules,
               &CudaDriverApi::cuModuleUnloadFn);
}

static void *mgpuModuleGetFunction(void *module, const char *name) {
  CudaRuntimeState *s = state();
  if (!s || !module || !name)
    return nullptr;
  auto cuModule = static_cast<CUmodule>(module);
  llvm::StringMap<CUfunction> &known = s->functions[cuModule];
  auto it = known.find(name);
  if (it != known.end())
    return it->second;
  CUfunction function = nullptr;
  CUresult result = s->api.cuModuleGetFunctionFn(&function, cuModule, name);
  if (result != CUDA_SUCCESS) {
    std::string what = llvm::formatv("cuModuleGetFunction({0})", name).str();
    s->check(result, what.c_str());
    return nullptr;
  }
  known[name] = function;
  return function;
}

/// Raises a kernel's dynamic shared memory limit when it asks for more than
/// the default 48 KB and than it was allowed before.
static bool prepareSharedMemory(CudaRuntimeState *s, CUfunction function,
                                int32_t sharedBytes) {
  if (sharedBytes <= 48 * 1024)
    return true;
  auto known = s->sharedLimits.find(function);
  if (known != s->sharedLimits.end() && known->second >= sharedBytes)
    return true;
  if (!s->check(s->api.cuFuncSetAttributeFn(
                    function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    sharedBytes),
                "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
    return false;
  s->sharedLimits[function] = sharedBytes;
  return true;
}

/// The function to launch with `sharedBytes` of dynamic shared memory, or
/// null when nothing may run: a failed load or lookup was recorded already,
/// and launching nothing keeps the run from touching a null function.
static CUfunction prepareLaunch(CudaRuntimeState *s, void *function,
                                int32_t sharedBytes) {
  if (!s || !function || s->hasError())
    return nullptr;
  auto cuFunction = static_cast<CUfunction>(function);
  if (!prepareSharedMemory(s, cuFunction, sharedBytes))
    return nullptr;
  return cuFunction;
}

static void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                             intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                             intptr_t blockZ, int32_t sharedBytes, void *stream,
                             void **params, void **extra,
                             size_t /*paramsCount*/) {
  CudaRuntimeState *s = state();
  CUfunction cuFunction = prepareLaunch(s, function, sharedBytes);
  if (!cuFunction)
    return;
  s->check(s->api.cuLaunchKernelFn(cuFunction, gridX, gridY, gridZ, blockX,
                                   blockY, blockZ, sharedBytes,
                                   streamOrDefault(s, stream), params, extra),
           "cuLaunchKernel");
}

static void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                                    intptr_t clusterY, intptr_t clusterZ,
                                    intptr_t gridX, intptr_t gridY,
                                    intptr_t gridZ, intptr_t blockX,
                                    intptr_t blockY, intptr_t blockZ,
                                    int32_t sharedBytes, void *stream,
                                    void **params, void **extra) {
  CudaRuntimeState *s = state();
  CUfunction cuFunction = prepareLaunch(s, function, sharedBytes);
  if (!cuFunction)
    return;
  CUlaunchAttribute attrs[1];
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim.x = clusterX;
  attrs[0].value.clusterDim.y = clusterY;
  attrs[0].value.clusterDim.z = clusterZ;
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = gridX;
  config.gridDimY = gridY;
  config.gridDimZ = gridZ;
  config.blockDimX = blockX;
  config.blockDimY = blockY;
  config.blockDimZ = blockZ;
  config.sharedMemBytes = sharedBytes;
  config.hStream = streamOrDefault(s, stream);
  config.attrs = attrs;
  config.numAttrs = 1;
  s->check(s->api.cuLaunchKernelExFn(&config, cuFunction, params, extra),
           "cuLaunchKernelEx");
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

static void *mgpuStreamCreate() {
  CudaRuntimeState *s = state();
  return s ? s->stream : nullptr;
}

static void mgpuStreamDestroy(void * /*stream*/) {
  // The one stream belongs to the target.
}

static void mgpuStreamSynchronize(void * /*stream*/) {
  // Deferred: all work is on one stream, which the target synchronises at
  // the end of every run. Host code cannot observe device memory in
  // between except through mgpuMemcpy, which waits itself.
}

static void mgpuStreamWaitEvent(void *stream, void *event) {
  CudaRuntimeState *s = state();
  if (!s || !event)
    return;
  s->check(s->api.cuStreamWaitEventFn(streamOrDefault(s, stream),
                                      static_cast<CUevent>(event), 0),
           "cuStreamWaitEvent");
}

static void *mgpuEventCreate() {
  CudaRuntimeState *s = state();
  if (!s)
    return nullptr;
  CUevent event = nullptr;
  if (!s->check(s->api.cuEventCreateFn(&event, CU_EVENT_DISABLE_TIMING),
                "cuEventCreate"))
    return nullptr;
  s->events.insert(event);
  return event;
}

static void mgpuEventDestroy(void *event) {
  destroyOwned(event, &CudaRuntimeState::events,
               &CudaDriverApi::cuEventDestroyFn);
}

static void mgpuEventSynchronize(void *event) {
  CudaRuntimeState *s = state();
  if (!s || !event || !s->beforeWait("an event wait"))
    return;
  s->check(s->api.cuEventSynchronizeFn(static_cast<CUevent>(event)),
           "cuEventSynchronize");
}

static void mgpuEventRecord(void *event, void *stream) {
  CudaRuntimeState *s = state();
  if (!s || !event)
    return;
  s->check(s->api.cuEventRecordFn(static_cast<CUevent>(event),
                                  streamOrDefault(s, stream)),
           "cuEventRecord");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/,
                          uint8_t isHostShared) {
  CudaRuntimeState *s = state();
  if (!s)
    return nullptr;
  if (isHostShared) {
    s->recordError("gpu.alloc host_shared is not supported by the cuda "
                   "target");
    return nullptr;
  }
  uint64_t size = std::max<uint64_t>(sizeBytes, 1);
  CUdeviceptr ptr = 0;
  if (auto it = s->pool.find(size); it != s->pool.end()) {
    ptr = it->second;
    s->pool.erase(it);
  } else {
    // Not a stream operation: allowed while capturing (relaxed mode), and
    // a program's warm-up fills the pool first.
    s->openGateBeforeWait();
    if (!s->check(s->api.cuMemAllocFn(&ptr, size), "cuMemAlloc"))
      return nullptr;
  }
  s->allocations[ptr] = size;
  return reinterpret_cast<void *>(ptr);
}

static void mgpuMemFree(void *ptr, void * /*stream*/) {
  CudaRuntimeState *s = state();
  if (!s || !ptr)
    return;
  auto it = s->allocations.find(reinterpret_cast<CUdeviceptr>(ptr));
  if (it == s->allocations.end())
    return;
  // Kernels still queued may use the buffer: it goes back to the pool, and
  // only work queued after them on the one stream can get it again.
  s->pool.emplace(it->second, it->first);
  s->allocations.erase(it);
}

static void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  CudaRuntimeState *s = state();
  if (!s)
    return;
  CUstream cuStream = streamOrDefault(s, stream);
  // A copy from pageable host memory may wait for the stream, and this one
  // is waited for.
  if (!s->beforeWait("a copy"))
    return;
  // Unified addressing: the driver tells host from device pointers. Waiting
  // keeps host memory that the host code reads next coherent.
  if (s->check(s->api.cuMemcpyAsyncFn(reinterpret_cast<CUdeviceptr>(dst),
                                      reinterpret_cast<CUdeviceptr>(src),
                                      sizeBytes, cuStream),
               "cuMemcpyAsync"))
    s->check(s->api.cuStreamSynchronizeFn(cuStream), "cuStreamSynchronize");
}

/// `count` copies of `value` from `dst`, queued on the stream by the driver's
/// memset of the value's width (`memset`, named `what` in errors).
template <typename Fn, typename T>
static void memsetAsync(Fn CudaDriverApi::*memset, const char *what, void *dst,
                        T value, size_t count, void *stream) {
  CudaRuntimeState *s = state();
  if (!s)
    return;
  s->check((s->api.*memset)(reinterpret_cast<CUdeviceptr>(dst), value, count,
                            streamOrDefault(s, stream)),
           what);
}

static void mgpuMemset32(void *dst, uint32_t value, size_t count,
                         void *stream) {
  memsetAsync(&CudaDriverApi::cuMemsetD32AsyncFn, "cuMemsetD32Async", dst,
              value, count, stream);
}

static void mgpuMemset16(void *dst, uint16_t value, size_t count,
                         void *stream) {
  memsetAsync(&CudaDriverApi::cuMemsetD16AsyncFn, "cuMemsetD16Async", dst,
              value, count, stream);
}

/// The device copy of the `sizeBytes` of a host global at `host`: uploaded
/// on first use (outside any timed run, which the warm-up precedes).
static void *starkDeviceCopyOfGlobal(void *host, uint64_t sizeBytes) {
  CudaRuntimeState *s = state();
  if (!s || !host)
    return nullptr;
  auto it = s->globals.find(host);
  if (it != s->globals.end()) {
    if (it->second.second == sizeBytes)
      return reinterpret_cast<void *>(it->second.first);
    s->recordError("a global is read with two different sizes");
    return nullptr;
  }
  CUdeviceptr ptr = 0;
  if (!s->beforeWait("a global's upload"))
    return nullptr;
  if (!s->check(s->api.cuMemAllocFn(&ptr, std::max<uint64_t>(sizeBytes, 1)),
                "cuMemAlloc"))
    return nullptr;
  s->globals[host] = {ptr, sizeBytes};
  mgpuMemcpy(reinterpret_cast<void *>(ptr), host, sizeBytes, nullptr);
  return s->hasError() ? nullptr : reinterpret_cast<void *>(ptr);
}

/// What `nvgpu.tma.create.descriptor` lowers to, with upstream's signature
/// (mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp): a tiled tensor map
/// of the memref whose ranked descriptor is at `descriptor` (rank `rank`),
/// of the driver's data type, interleave, swizzle, L2 promotion and fill,
/// boxes of `boxDims` (outermost first). Returns the map's device address;
/// the map is written there again on every call.
static void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                            int64_t dataType,
                                            int64_t interleave, int64_t swizzle,
                                            int64_t l2Promotion,
                                            int64_t oobFill, int64_t *boxDims) {
  CudaRuntimeState *s = state();
  if (!s || !descriptor || !boxDims || s->hasError())
    return nullptr;
  // Element sizes of CUtensorMapDataType's values, in order.
  static constexpr unsigned kElementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                               4, 8, 2, 4, 4, 4};
  if (rank < 1 || rank > 5 || dataType < 0 ||
      dataType >= int64_t(std::size(kElementBytes))) {
    s->recordError(llvm::formatv("mgpuTensorMapEncodeTiledMemref: rank {0} "
                                 "or data type {1} is not supported",
                                 rank, dataType));
    return nullptr;
  }
  // A ranked memref descriptor: allocated and aligned pointers, offset,
  // then `rank` sizes and `rank` strides (elements).
  auto *fields = static_cast<int64_t *>(descriptor);
  char *aligned = reinterpret_cast<char **>(descriptor)[1];
  const int64_t *sizes = fields + 3, *strides = fields + 3 + rank;
  unsigned elementBytes = kElementBytes[dataType];
  CUtensorMap map;
  if (!s->check(
          encodeTiledTensorMap(
              s->api, CUtensorMapDataType(dataType), elementBytes,
              aligned + fields[2] * elementBytes,
              ArrayRef<int64_t>(sizes, rank), ArrayRef<int64_t>(strides, rank),
              ArrayRef<int64_t>(boxDims, rank),
              CUtensorMapInterleave(interleave), CUtensorMapSwizzle(swizzle),
              CUtensorMapL2promotion(l2Promotion),
              CUtensorMapFloatOOBfill(oobFill), map),
          "cuTensorMapEncodeTiled"))
    return nullptr;
  std::string key(reinterpret_cast<const char *>(&map), sizeof(map));
  // While capturing, a map the warm-up wrote is taken as it is: a copy
  // from pageable memory cannot be part of a graph.
  if (s->capturing) {
    auto it = s->tensorMaps.find(key);
    if (it != s->tensorMaps.end())
      return reinterpret_cast<void *>(it->second);
  }
  // The copy below is from pageable memory: it may wait for the stream.
  if (!s->beforeWait("a tensor map's write"))
    return nullptr;
  CUdeviceptr &memory = s->tensorMaps[key];
  if (!memory &&
      !s->check(s->api.cuMemAllocFn(&memory, sizeof(map)), "cuMemAlloc")) {
    s->tensorMaps.erase(key);
    return nullptr;
  }
  // Synchronous from pageable memory: the map may go out of scope.
  if (!s->check(
          s->api.cuMemcpyHtoDAsyncFn(memory, &map, sizeof(map), s->stream),
          "cuMemcpyHtoDAsync (tensor map)"))
    return nullptr;
  return reinterpret_cast<void *>(memory);
}

static void mgpuSetDefaultDevice(int32_t device) {
  CudaRuntimeState *s = state();
  if (s && device != 0)
    s->recordError("the cuda target runs on one device; gpu.set_default_device "
                   "to another is not supported");
}

const llvm::StringMap<void *> &mlir::stark::getCudaRuntimeSymbols() {
  static const llvm::StringMap<void *> symbols = [] {
    llvm::StringMap<void *> map;
#define STARK_ADD(fn) map[#fn] = reinterpret_cast<void *>(&fn);
    STARK_ADD(mgpuModuleLoad)
    STARK_ADD(mgpuModuleLoadJIT)
    STARK_ADD(mgpuModuleUnload)
    STARK_ADD(mgpuModuleGetFunction)
    STARK_ADD(mgpuLaunchKernel)
    STARK_ADD(mgpuLaunchClusterKernel)
    STARK_ADD(mgpuStreamCreate)
    STARK_ADD(mgpuStreamDestroy)
    STARK_ADD(mgpuStreamSynchronize)
    STARK_ADD(mgpuStreamWaitEvent)
    STARK_ADD(mgpuEventCreate)
    STARK_ADD(mgpuEventDestroy)
    STARK_ADD(mgpuEventSynchronize)
    STARK_ADD(mgpuEventRecord)
    STARK_ADD(mgpuMemAlloc)
    STARK_ADD(mgpuMemFree)
    STARK_ADD(mgpuMemcpy)
    STARK_ADD(mgpuMemset32)
    STARK_ADD(mgpuMemset16)
    STARK_ADD(mgpuSetDefaultDevice)
    STARK_ADD(mgpuTensorMapEncodeTiledMemref)
#undef STARK_ADD
    map[kDeviceCopyOfGlobalSymbol] =
        reinterpret_cast<void *>(&starkDeviceCopyOfGlobal);
    return map;
  }();
  return symbols;
}
