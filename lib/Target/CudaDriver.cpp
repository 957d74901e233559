//===- CudaDriver.cpp - The CUDA driver and NVRTC, loaded at run time -----===//

#include "stark/Target/CudaDriver.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <dlfcn.h>
#include <memory>

using namespace mlir;
using namespace mlir::stark;

// Expands the cuda.h macro first, so that cuMemAlloc is looked up as
// cuMemAlloc_v2.
#define STARK_SYMBOL_NAME(name) STARK_SYMBOL_NAME_IMPL(name)
#define STARK_SYMBOL_NAME_IMPL(name) #name

static std::string lastDlError() {
  const char *message = dlerror();
  return message ? message : "unknown error";
}

/// Loads the first library of `candidates` that dlopen finds.
static void *openFirst(ArrayRef<std::string> candidates, std::string &reason) {
  std::string tried;
  for (const std::string &name : candidates) {
    // RTLD_LOCAL: the symbols are only reached through dlsym, so nothing
    // they export can shadow another library's.
    if (void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))
      return handle;
    if (!tried.empty())
      tried += "; ";
    tried += lastDlError();
  }
  reason = tried;
  return nullptr;
}

template <typename Fn>
static bool lookUp(void *handle, const char *name, Fn &fn,
                   std::string &reason) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (fn)
    return true;
  reason = llvm::formatv("symbol {0} missing", name).str();
  return false;
}

// One member of an X-macro function list: `api->name##Fn` from `handle`,
// else the loader returns null with `reason` saying why (`unusable`) and
// which symbol was missing.
#define STARK_LOAD_MEMBER(name)                                                \
  if (!lookUp(handle, STARK_SYMBOL_NAME(name), api->name##Fn, missing)) {      \
    reason = (unusable + " (" + missing + ")").str();                          \
    return nullptr;                                                            \
  }

/// What `Load` answers on the first call, computed once per process (a
/// function-local static per loader) and repeated to every later caller:
/// the library, or null with `reason` set.
template <typename Api, const Api *(*Load)(std::string &)>
static const Api *loadOnce(std::string &reason) {
  static std::string loadReason;
  static const Api *api = Load(loadReason);
  if (!api)
    reason = loadReason;
  return api;
}

std::string mlir::stark::getCudaToolkitPath() {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    const char *value = std::getenv(var);
    if (value && *value && llvm::sys::fs::is_directory(value))
      return value;
  }
  if (llvm::sys::fs::is_directory("/usr/local/cuda"))
    return "/usr/local/cuda";
  return "";
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

static const CudaDriverApi *loadDriver(std::string &reason) {
  // Only the versioned soname: the unversioned libcuda.so in the toolkit is
  // a stub whose every call fails, which would hide the real cause.
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    reason = "no CUDA device: libcuda.so.1 not found (" + lastDlError() + ")";
    return nullptr;
  }
  // Never freed: kernels and contexts may outlive any owner we could name,
  // and the driver is process-wide anyway.
  auto api = std::make_unique<CudaDriverApi>();
  std::string missing;
  StringRef unusable = "no CUDA device: libcuda.so.1 is too old";
  STARK_CUDA_DRIVER_FUNCTIONS(STARK_LOAD_MEMBER)

  CUresult result = api->cuInitFn(0);
  if (result != CUDA_SUCCESS) {
    reason = "no CUDA device: " + api->describe(result, "cuInit");
    return nullptr;
  }
  int count = 0;
  result = api->cuDeviceGetCountFn(&count);
  if (result != CUDA_SUCCESS) {
    reason = "no CUDA device: " + api->describe(result, "cuDeviceGetCount");
    return nullptr;
  }
  if (count == 0) {
    reason = "no CUDA device: the driver reports no devices";
    return nullptr;
  }
  return api.release();
}

const CudaDriverApi *CudaDriverApi::get(std::string &reason) {
  return loadOnce<CudaDriverApi, loadDriver>(reason);
}

std::string CudaDriverApi::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorNameFn(result, &name) != CUDA_SUCCESS || !name)
    name = "CUDA_ERROR_UNKNOWN";
  if (cuGetErrorStringFn(result, &text) != CUDA_SUCCESS || !text)
    text = "unrecognised error code";
  return llvm::formatv("{0} ({1}): {2}", name, int(result), text).str();
}

std::string CudaDriverApi::describe(CUresult result, StringRef what) const {
  return (what + " failed: " + describe(result)).str();
}

//===----------------------------------------------------------------------===//
// NVRTC
//===----------------------------------------------------------------------===//

static const NvrtcApi *loadNvrtc(std::string &reason) {
  SmallVector<std::string> candidates = {"libnvrtc.so.13", "libnvrtc.so"};
  std::string toolkit = getCudaToolkitPath();
  if (!toolkit.empty()) {
    for (const char *name : {"libnvrtc.so.13", "libnvrtc.so"}) {
      SmallString<128> path(toolkit);
      llvm::sys::path::append(path, "lib64", name);
      candidates.push_back(std::string(path));
    }
  }
  void *handle = openFirst(candidates, reason);
  if (!handle) {
    reason = "NVRTC not found (" + reason + ")";
    return nullptr;
  }
  auto api = std::make_unique<NvrtcApi>();
  std::string missing;
  StringRef unusable = "NVRTC is unusable";
  STARK_NVRTC_FUNCTIONS(STARK_LOAD_MEMBER)
  return api.release();
}

const NvrtcApi *NvrtcApi::get(std::string &reason) {
  return loadOnce<NvrtcApi, loadNvrtc>(reason);
}
