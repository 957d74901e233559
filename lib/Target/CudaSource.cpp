//===- CudaSource.cpp - CUDA C++ candidates: parsed, compiled, guarded ----===//
//
// A candidate written as CUDA C++ (a template family's instance or a
// model's reply) carries its source and launches in a #stark.cuda
// attribute. NVRTC compiles it for the device's chip, its output is kept in
// the compile cache, and the PTX of model-written code meets the guards.
//
//===----------------------------------------------------------------------===//

#include "stark/Dialect/StarkDialect.h"
#include "stark/Target/CompileCache.h"
#include "stark/Target/CudaCompile.h"
#include "stark/Target/CudaDriver.h"
#include "stark/Target/CudaTensorMaps.h"
#include "stark/Target/PtxGuards.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::stark;

bool mlir::stark::hasCudaSource(func::FuncOp func) {
  return func->hasAttr(kCudaAttrName);
}

FailureOr<CudaSourceCandidate>
mlir::stark::parseCudaSource(func::FuncOp func, std::string &error) {
  Attribute raw = func->getAttr(kCudaAttrName);
  auto attr = dyn_cast_or_null<CudaKernelAttr>(raw);
  if (!attr) {
    // Only reached when the stark dialect was not loaded while parsing
    // (its verifier rejects this otherwise).
    error = llvm::formatv("'{0}' on @{1} must be a #stark.cuda attribute",
                          kCudaAttrName, func.getSymName())
                .str();
    if (isa_and_nonnull<DictionaryAttr>(raw))
      error += " (string-keyed dictionaries are no longer accepted)";
    return failure();
  }
  // The attribute's verifier checked the source, kernels and extents.
  CudaSourceCandidate candidate;
  candidate.source = attr.getSource().str();
  candidate.family = attr.getFamily().str();
  for (LaunchAttr l : attr.getLaunchList()) {
    CudaLaunch launch;
    launch.kernel = l.getKernel().str();
    for (auto [i, v] : llvm::enumerate(l.getGrid().asArrayRef()))
      launch.grid[i] = v;
    for (auto [i, v] : llvm::enumerate(l.getBlock().asArrayRef()))
      launch.block[i] = v;
    launch.sharedBytes = l.getSharedBytes();
    launch.tensorMaps = l.getTensorMapList();
    for (TensorMapAttr map : launch.tensorMaps)
      if (failed(getTensorMapSpec(map, func.getArgumentTypes(), error))) {
        error = llvm::formatv("launch of {0}: {1}", launch.kernel, error);
        return failure();
      }
    candidate.launches.push_back(std::move(launch));
  }
  candidate.options = attr.getOptionList();
  return candidate;
}

bool mlir::stark::isNvrtcAvailable(std::string &reason) {
  return NvrtcApi::get(reason) != nullptr;
}

/// What identifies the NVRTC that compiles: the library the toolkit's
/// libnvrtc.so resolves to (its versioned name) and its size.
static const std::string &getNvrtcIdentity() {
  static const std::string identity = [] {
    std::string toolkit = getCudaToolkitPath();
    SmallString<256> link(toolkit);
    llvm::sys::path::append(link, "lib64", "libnvrtc.so");
    SmallString<256> real;
    uint64_t size = 0;
    if (llvm::sys::fs::real_path(link, real))
      real = link;
    llvm::sys::fs::file_size(real, size);
    return (toolkit + "|" + real + "|" + Twine(size)).str();
  }();
  return identity;
}

static std::vector<std::string> toBlobs(const NvrtcOutput &output) {
  std::vector<std::string> blobs = {output.ptx, output.cubin, output.log};
  for (const auto &entry : output.loweredNames) {
    blobs.push_back(entry.getKey().str());
    blobs.push_back(entry.getValue());
  }
  return blobs;
}

static std::optional<NvrtcOutput> fromBlobs(ArrayRef<std::string> blobs,
                                            ArrayRef<std::string> names) {
  if (blobs.size() < 3 || blobs.size() % 2 != 1)
    return std::nullopt;
  NvrtcOutput output;
  output.ptx = blobs[0];
  output.cubin = blobs[1];
  output.log = blobs[2];
  for (size_t i = 3; i + 1 < blobs.size(); i += 2)
    output.loweredNames[blobs[i]] = blobs[i + 1];
  if (output.ptx.empty() && output.cubin.empty())
    return std::nullopt;
  for (const std::string &name : names)
    if (!output.loweredNames.contains(name))
      return std::nullopt;
  return output;
}

static FailureOr<NvrtcOutput>
compileUncached(StringRef source, ArrayRef<std::string> kernelNames,
                StringRef chip, ArrayRef<std::string> extraOptions,
                std::string &error);

FailureOr<NvrtcOutput> mlir::stark::compileCudaSourceWithNvrtc(
    StringRef source, ArrayRef<std::string> kernelNames, StringRef chip,
    ArrayRef<std::string> extraOptions, std::string &error,
    CompileCache *given) {
  CompileCache &cache = given ? *given : CompileCache::getDefault();
  std::string key;
  if (cache.isEnabled()) {
    SmallVector<StringRef> parts = {"nvrtc", getNvrtcIdentity(), chip, source};
    parts.push_back("names");
    parts.append(kernelNames.begin(), kernelNames.end());
    parts.push_back("options");
    parts.append(extraOptions.begin(), extraOptions.end());
    key = CompileCache::makeKey(parts);
    if (auto blobs = cache.lookup("nvrtc", key))
      if (std::optional<NvrtcOutput> cached = fromBlobs(*blobs, kernelNames))
        return std::move(*cached);
  }
  FailureOr<NvrtcOutput> built =
      compileUncached(source, kernelNames, chip, extraOptions, error);
  if (succeeded(built) && !key.empty())
    cache.store("nvrtc", key, toBlobs(*built));
  return built;
}

FailureOr<NvrtcOutput>
mlir::stark::compileCudaSourceCandidate(const CudaSourceCandidate &candidate,
                                        StringRef chip, std::string &error,
                                        CompileCache *cache) {
  SmallVector<std::string> names;
  for (const CudaLaunch &launch : candidate.launches)
    if (!llvm::is_contained(names, launch.kernel))
      names.push_back(launch.kernel);
  return compileCudaSourceWithNvrtc(candidate.source, names, chip,
                                    candidate.options, error, cache);
}

unsigned mlir::stark::precompileCudaSources(ModuleOp module, StringRef chip,
                                            CompileCache *cache) {
  unsigned compiled = 0;
  module.walk([&](func::FuncOp func) {
    if (!hasCudaSource(func))
      return;
    std::string error;
    FailureOr<CudaSourceCandidate> candidate = parseCudaSource(func, error);
    if (succeeded(candidate) &&
        succeeded(compileCudaSourceCandidate(*candidate, chip, error, cache)))
      ++compiled;
  });
  return compiled;
}

static FailureOr<NvrtcOutput>
compileUncached(StringRef source, ArrayRef<std::string> kernelNames,
                StringRef chip, ArrayRef<std::string> extraOptions,
                std::string &error) {
  std::string reason;
  const NvrtcApi *api = NvrtcApi::get(reason);
  if (!api) {
    error = reason;
    return failure();
  }
  auto check = [&](nvrtcResult result, StringRef what) {
    if (result == NVRTC_SUCCESS)
      return true;
    error = (what + " failed: " + api->nvrtcGetErrorStringFn(result)).str();
    return false;
  };

  nvrtcProgram program = nullptr;
  std::string text = source.str();
  if (!check(api->nvrtcCreateProgramFn(&program, text.c_str(), "candidate.cu",
                                       0, nullptr, nullptr),
             "nvrtcCreateProgram"))
    return failure();
  auto destroy =
      llvm::scope_exit([&] { api->nvrtcDestroyProgramFn(&program); });

  for (const std::string &name : kernelNames)
    if (!check(api->nvrtcAddNameExpressionFn(program, name.c_str()),
               "nvrtcAddNameExpression(" + name + ")"))
      return failure();

  SmallVector<std::string> options = {("--gpu-architecture=" + chip).str(),
                                      "-std=c++17", "-lineinfo"};
  std::string toolkit = getCudaToolkitPath();
  if (!toolkit.empty())
    options.push_back("--include-path=" + toolkit + "/include");
  options.append(extraOptions.begin(), extraOptions.end());
  SmallVector<const char *> optionPtrs;
  for (const std::string &option : options)
    optionPtrs.push_back(option.c_str());

  nvrtcResult compiled = api->nvrtcCompileProgramFn(
      program, int(optionPtrs.size()), optionPtrs.data());

  NvrtcOutput output;
  size_t logSize = 0;
  if (api->nvrtcGetProgramLogSizeFn(program, &logSize) == NVRTC_SUCCESS &&
      logSize > 1) {
    output.log.resize(logSize);
    if (api->nvrtcGetProgramLogFn(program, output.log.data()) == NVRTC_SUCCESS)
      output.log.resize(logSize - 1);
    else
      output.log.clear();
  }
  if (compiled != NVRTC_SUCCESS) {
    error = llvm::formatv("NVRTC compilation failed ({0}):\n{1}",
                          api->nvrtcGetErrorStringFn(compiled), output.log)
                .str();
    return failure();
  }

  size_t size = 0;
  if (api->nvrtcGetPTXSizeFn(program, &size) == NVRTC_SUCCESS && size > 1) {
    output.ptx.resize(size);
    if (!check(api->nvrtcGetPTXFn(program, output.ptx.data()), "nvrtcGetPTX"))
      return failure();
    output.ptx.resize(size - 1);
  }
  if (chip.starts_with("sm_")) {
    if (!check(api->nvrtcGetCUBINSizeFn(program, &size), "nvrtcGetCUBINSize"))
      return failure();
    output.cubin.resize(size);
    if (!check(api->nvrtcGetCUBINFn(program, output.cubin.data()),
               "nvrtcGetCUBIN"))
      return failure();
  }
  if (output.ptx.empty() && output.cubin.empty()) {
    error = "NVRTC produced neither PTX nor a cubin";
    return failure();
  }

  for (const std::string &name : kernelNames) {
    const char *lowered = nullptr;
    if (!check(api->nvrtcGetLoweredNameFn(program, name.c_str(), &lowered),
               "nvrtcGetLoweredName(" + name + ")"))
      return failure();
    output.loweredNames[name] = lowered;
  }
  return output;
}

LogicalResult
mlir::stark::checkModelWrittenPtx(const CudaSourceCandidate &candidate,
                                  const NvrtcOutput &built, unsigned numInputs,
                                  std::string &error) {
  if (candidate.family != kModelWrittenCudaFamily)
    return success();
  if (built.ptx.empty()) {
    error = "NVRTC produced no PTX to check for the model-written candidate";
    return failure();
  }
  PtxGuardOptions options;
  options.numInputs = numInputs;
  if (std::optional<PtxViolation> v = findPtxViolation(built.ptx, options)) {
    error = "the compiled candidate breaks a guard: " + v->describe();
    return failure();
  }
  return success();
}
