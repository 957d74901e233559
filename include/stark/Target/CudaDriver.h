//===- CudaDriver.h - CUDA driver and NVRTC at run time ---------*- C++ -*-===//
//
// stark never links libcuda or NVRTC: a build host has the CUDA headers but
// no driver, and CI has no GPU. The entry points are looked up with dlopen
// and dlsym on first use; the types come from cuda.h and nvrtc.h, whose
// macros also name the versioned symbols (cuMemAlloc is cuMemAlloc_v2).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_CUDADRIVER_H
#define STARK_TARGET_CUDADRIVER_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cuda.h>
#include <nvrtc.h>

#include <string>

namespace mlir::stark {

// Each X(name) becomes a member `nameFn` of the type of the symbol that the
// cuda.h macro `name` stands for.
#define STARK_CUDA_DRIVER_FUNCTIONS(X)                                         \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemHostAlloc)                                                            \
  X(cuMemHostGetDevicePointer)                                                 \
  X(cuMemFreeHost)                                                             \
  X(cuStreamWaitValue32)                                                       \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoHAsync)                                                         \
  X(cuMemcpyAsync)                                                             \
  X(cuMemsetD8Async)                                                           \
  X(cuMemsetD16Async)                                                          \
  X(cuMemsetD32Async)                                                          \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuGraphInstantiate)                                                        \
  X(cuGraphLaunch)                                                             \
  X(cuGraphExecDestroy)                                                        \
  X(cuGraphDestroy)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuLaunchKernelEx)                                                          \
  X(cuTensorMapEncodeTiled)

#define STARK_NVRTC_FUNCTIONS(X)                                               \
  X(nvrtcVersion)                                                              \
  X(nvrtcGetErrorString)                                                       \
  X(nvrtcCreateProgram)                                                        \
  X(nvrtcDestroyProgram)                                                       \
  X(nvrtcCompileProgram)                                                       \
  X(nvrtcGetProgramLogSize)                                                    \
  X(nvrtcGetProgramLog)                                                        \
  X(nvrtcGetPTXSize)                                                           \
  X(nvrtcGetPTX)                                                               \
  X(nvrtcGetCUBINSize)                                                         \
  X(nvrtcGetCUBIN)                                                             \
  X(nvrtcAddNameExpression)                                                    \
  X(nvrtcGetLoweredName)

/// The driver API of libcuda.so.1, initialised (cuInit) once per process.
struct CudaDriverApi {
#define STARK_DECLARE_MEMBER(name) decltype(&name) name##Fn = nullptr;
  STARK_CUDA_DRIVER_FUNCTIONS(STARK_DECLARE_MEMBER)
#undef STARK_DECLARE_MEMBER

  /// The loaded and initialised driver, or null with `reason` set (the
  /// library is missing, a symbol is missing, or cuInit failed). The result
  /// is computed once; later calls return the same answer.
  static const CudaDriverApi *get(std::string &reason);

  /// "CUDA_ERROR_X: description" for `result`.
  std::string describe(CUresult result) const;
  /// "<what> failed: CUDA_ERROR_X: description".
  std::string describe(CUresult result, StringRef what) const;
};

/// NVRTC (libnvrtc.so.13, else libnvrtc.so, else from the toolkit's lib64).
/// It needs no GPU.
struct NvrtcApi {
#define STARK_DECLARE_MEMBER(name) decltype(&name) name##Fn = nullptr;
  STARK_NVRTC_FUNCTIONS(STARK_DECLARE_MEMBER)
#undef STARK_DECLARE_MEMBER

  /// The loaded library, or null with `reason` set. Computed once.
  static const NvrtcApi *get(std::string &reason);
};

/// The CUDA toolkit root: $CUDA_HOME, $CUDA_PATH, else /usr/local/cuda when
/// it exists; empty when none is found.
std::string getCudaToolkitPath();

} // namespace mlir::stark

#endif // STARK_TARGET_CUDADRIVER_H
