//===- CudaRuntimeTest.cpp - The mgpu* functions' per-launch work ---------===//
//
// The host code of a lowered program looks its kernel up before every launch
// and asks for its dynamic shared memory every time; the runtime pays the
// driver for each once. A fake driver counts the calls (no device needed).
//
//===----------------------------------------------------------------------===//

#include "stark/Target/CudaRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace mlir;
using namespace mlir::stark;

namespace {
int lookups = 0, attributeSets = 0, launches = 0, lastShared = 0;

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

using GetFunction = void *(*)(void *, const char *);
using Unload = void (*)(void *);
using Launch = void (*)(void *, intptr_t, intptr_t, intptr_t, intptr_t,
                        intptr_t, intptr_t, int32_t, void *, void **, void **,
                        size_t);

template <typename Fn> Fn runtimeFunction(StringRef name) {
  return reinterpret_cast<Fn>(getCudaRuntimeSymbols().lookup(name));
}

struct CudaRuntimeTest : ::testing::Test {
  void SetUp() override {
    lookups = attributeSets = launches = lastShared = 0;
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
