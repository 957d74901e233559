//===- CudaRuntimeTest.cpp - The mgpu* functions' per-launch work ---------===//
//
// The host code of a lowered program looks its kernel up before every launch
// and asks for its dynamic shared memory every time; the runtime pays the
// driver for each once. While the launches are captured into a CUDA graph,
// what would wait for the device is refused with a reason. A fake driver
// counts the calls (no device needed).
//
//===----------------------------------------------------------------------===//

#include "stark/Target/CudaRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace mlir;
using namespace mlir::stark;

namespace {
int lookups = 0, attributeSets = 0, launches = 0, lastShared = 0, copies = 0,
    syncs = 0, allocs = 0;

CUresult fakeGetFunction(CUfunction *function, CUmodule module,
                         const char *name) {
  ++lookups;
  // A distinct handle per module and name.
  *function = reinterpret_cast<CUfunction>(reinterpret_cast<uintptr_t>(module) +
                                           16 * uintptr_t(name[0]));
  return CUDA_SUCCESS;
}
CUresult fakeSetAttribute(CUfunction, CUfunction_attribute, int value) {
  ++attributeSets;
  lastShared = value;
  return CUDA_SUCCESS;
}
CUresult fakeLaunch(CUfunction, unsigned, unsigned, unsigned, unsigned,
                    unsigned, unsigned, unsigned, CUstream, void **, void **) {
  ++launches;
  return CUDA_SUCCESS;
}
CUresult fakeUnload(CUmodule) { return CUDA_SUCCESS; }
CUresult fakeCopy(CUdeviceptr, CUdeviceptr, size_t, CUstream) {
  ++copies;
  return CUDA_SUCCESS;
}
CUresult fakeSync(CUstream) {
  ++syncs;
  return CUDA_SUCCESS;
}
CUresult fakeAlloc(CUdeviceptr *ptr, size_t) {
  *ptr = CUdeviceptr(0x10000 * ++allocs);
  return CUDA_SUCCESS;
}
CUresult fakeFree(CUdeviceptr) { return CUDA_SUCCESS; }

using GetFunction = void *(*)(void *, const char *);
using Memcpy = void (*)(void *, void *, size_t, void *);
using MemAlloc = void *(*)(uint64_t, void *, uint8_t);
using MemFree = void (*)(void *, void *);
using Unload = void (*)(void *);
using Launch = void (*)(void *, intptr_t, intptr_t, intptr_t, intptr_t,
                        intptr_t, intptr_t, int32_t, void *, void **, void **,
                        size_t);

template <typename Fn> Fn runtimeFunction(StringRef name) {
  return reinterpret_cast<Fn>(getCudaRuntimeSymbols().lookup(name));
}

struct CudaRuntimeTest : ::testing::Test {
  void SetUp() override {
    lookups = attributeSets = launches = lastShared = copies = syncs = allocs =
        0;
    api.cuMemcpyAsyncFn = fakeCopy;
    api.cuStreamSynchronizeFn = fakeSync;
    api.cuMemAllocFn = fakeAlloc;
    api.cuMemFreeFn = fakeFree;
    api.cuModuleGetFunctionFn = fakeGetFunction;
    api.cuFuncSetAttributeFn = fakeSetAttribute;
    api.cuLaunchKernelFn = fakeLaunch;
    api.cuModuleUnloadFn = fakeUnload;
  }
  CudaDriverApi api;
  GetFunction getFunction =
      runtimeFunction<GetFunction>("mgpuModuleGetFunction");
  Unload unload = runtimeFunction<Unload>("mgpuModuleUnload");
  Launch launch = runtimeFunction<Launch>("mgpuLaunchKernel");
  Memcpy memcpy = runtimeFunction<Memcpy>("mgpuMemcpy");
  MemAlloc memAlloc = runtimeFunction<MemAlloc>("mgpuMemAlloc");
  MemFree memFree = runtimeFunction<MemFree>("mgpuMemFree");
};
} // namespace

TEST_F(CudaRuntimeTest, AKernelIsLookedUpOncePerModule) {
  CudaRuntimeState state(api, nullptr);
  CudaRuntimeScope scope(state);
  void *a = reinterpret_cast<void *>(0x1000),
       *b = reinterpret_cast<void *>(0x2000);
  void *first = getFunction(a, "gemm");
  EXPECT_EQ(getFunction(a, "gemm"), first);
  EXPECT_EQ(lookups, 1);
  // Another name, or the same name in another module, is another kernel.
  EXPECT_NE(getFunction(a, "reduce"), first);
  EXPECT_NE(getFunction(b, "gemm"), first);
  EXPECT_EQ(lookups, 3);
  // After the module is unloaded its handle may name another one.
  unload(a);
  EXPECT_EQ(getFunction(a, "gemm"), first);
  EXPECT_EQ(lookups, 4);
  EXPECT_FALSE(state.hasError());
}

TEST_F(CudaRuntimeTest, SharedMemoryIsRaisedOnlyWhenALaunchAsksForMore) {
  CudaRuntimeState state(api, nullptr);
  CudaRuntimeScope scope(state);
  void *module = reinterpret_cast<void *>(0x1000);
  void *kernel = getFunction(module, "gemm");
  auto run = [&](int32_t sharedBytes) {
    launch(kernel, 1, 1, 1, 128, 1, 1, sharedBytes, nullptr, nullptr, nullptr,
           0);
  };
  run(32 * 1024); // under the default: never set
  EXPECT_EQ(attributeSets, 0);
  run(150 * 1024);
  run(150 * 1024);
  run(100 * 1024);
  EXPECT_EQ(attributeSets, 1);
  run(200 * 1024);
  EXPECT_EQ(attributeSets, 2);
  EXPECT_EQ(lastShared, 200 * 1024);
  EXPECT_EQ(launches, 5);
  // An unloaded module's kernels start from the default again.
  unload(module);
  kernel = getFunction(module, "gemm");
  run(150 * 1024);
  EXPECT_EQ(attributeSets, 3);
  EXPECT_FALSE(state.hasError());
}

TEST_F(CudaRuntimeTest, AWaitIsRefusedWhileCapturingAndLaunchesAreNot) {
  CudaRuntimeState state(api, nullptr);
  CudaRuntimeScope scope(state);
  void *kernel = getFunction(reinterpret_cast<void *>(0x1000), "gemm");
  char host[64];
  void *device = reinterpret_cast<void *>(0x9000);
  // Outside a capture a copy is queued and waited for.
  memcpy(host, device, sizeof(host), nullptr);
  EXPECT_EQ(copies, 1);
  EXPECT_EQ(syncs, 1);
  EXPECT_FALSE(state.hasError());

  state.capturing = true;
  launch(kernel, 1, 1, 1, 128, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  EXPECT_EQ(launches, 1);
  EXPECT_FALSE(state.hasError());
  // The pool serves a temporary freed earlier; a new size is allocated
  // (no stream operation): both may be captured.
  void *warm = memAlloc(256, nullptr, 0);
  memFree(warm, nullptr);
  EXPECT_EQ(memAlloc(256, nullptr, 0), warm);
  memAlloc(512, nullptr, 0);
  EXPECT_EQ(allocs, 2);
  EXPECT_FALSE(state.hasError());
  // A copy the host waits for is not queued at all, and says why.
  memcpy(host, device, sizeof(host), nullptr);
  EXPECT_EQ(copies, 1);
  EXPECT_EQ(syncs, 1);
  ASSERT_TRUE(state.hasError());
  EXPECT_EQ(state.takeError(),
            "the host program cannot be captured as a CUDA graph: it waits "
            "for the device (a copy) while it runs");
  state.capturing = false;
  state.releaseAllocations();
}
