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
#include "CudaTargetInternal.h"
#include "stark/Target/LoweredGuards.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include <optional>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::cudatarget;

/// Seconds between the device's start and stop events of the last run.
static FailureOr<double> elapsedSeconds(const CudaDriverApi &api,
                                        CudaDevice &device,
                                        std::string &error) {
  float ms = 0;
  CUresult result = api.cuEventElapsedTimeFn(&ms, device.start, device.stop);
  if (result != CUDA_SUCCESS) {
    error = api.describe(result, "cuEventElapsedTime");
    return failure();
  }
  return double(ms) * 1e-3;
}

namespace {

/// How long a host program timed behind the gate may hold it
/// (GateWatchdog): far longer than any program's host code takes to queue
/// its launches.
constexpr double kGateWatchdogSeconds = 5.0;

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
  FailureOr<NvrtcOutput> built =
      compileCudaSourceCandidate(*source, device->arch.chip, error);
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

  unsigned numMaps = 0;
  for (const CudaLaunch &launch : source->launches) {
    SourceCudaKernel::Launch compiled;
    compiled.config = launch;
    compiled.firstMap = numMaps;
    for (TensorMapAttr map : launch.tensorMaps) {
      FailureOr<TensorMapSpec> spec =
          getTensorMapSpec(map, entry.getArgumentTypes(), error);
      if (failed(spec))
        return failure();
      compiled.maps.push_back(std::move(*spec));
    }
    numMaps += compiled.maps.size();
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
  if (numMaps != 0) {
    kernel->hostMaps.resize(numMaps);
    result =
        api.cuMemAllocFn(&kernel->mapMemory, numMaps * sizeof(CUtensorMap));
    if (result != CUDA_SUCCESS) {
      error = api.describe(result, "cuMemAlloc (tensor maps)");
      return failure();
    }
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
  // What the launches need written first (tensor maps) goes before the
  // start event.
  if (failed(cudaKernel.prepareEnqueue(**cudaArgs, error)))
    return failure();
  // A host program as a CUDA graph: captured before the start event (the
  // first time), its replay timed.
  if (options.graphHostPrograms && cudaKernel.capturesAsGraph()) {
    FailureOr<CUgraphExec> graph = cudaKernel.getGraph(**cudaArgs, error);
    if (failed(graph))
      return failure();
    // Behind the gate too: the events time the replay, not the host.
    bool gated = device->holdAtGate();
    bool launched =
        check(api.cuEventRecordFn(device->start, device->stream),
              "cuEventRecord") &&
        check(api.cuGraphLaunchFn(*graph, device->stream), "cuGraphLaunch") &&
        check(api.cuEventRecordFn(device->stop, device->stream),
              "cuEventRecord");
    device->openGate(gated);
    std::string launchError = launched ? std::string() : error;
    if (failed(cudaKernel.finishQueued(launched, launchError, error)))
      return failure();
    return elapsedSeconds(api, *device, error);
  }
  // Launch lists hold the stream at the gate until they are enqueued; a
  // lowered host program may wait on the stream itself, so it is held only
  // where asked, with the runtime opening the gate before any such wait and
  // a watchdog for a wait the runtime does not know.
  bool hostProgram =
      options.gateHostPrograms && cudaKernel.opensGateBeforeWaits();
  bool gated = (cudaKernel.enqueuesOnlyLaunches() || hostProgram) &&
               device->holdAtGate();
  std::optional<GateWatchdog> watchdog;
  if (gated && hostProgram) {
    cudaKernel.setGateRelease([this] { device->openGate(/*held=*/true); });
    watchdog.emplace(*device, kGateWatchdogSeconds);
  }
  auto openGate = [&] {
    device->openGate(gated);
    if (!watchdog)
      return false;
    cudaKernel.setGateRelease(nullptr);
    return watchdog->disarm();
  };
  if (!check(api.cuEventRecordFn(device->start, device->stream),
             "cuEventRecord")) {
    openGate();
    return failure();
  }
  std::string enqueueError;
  bool enqueued = succeeded(cudaKernel.enqueue(**cudaArgs, enqueueError));
  bool recorded =
      check(api.cuEventRecordFn(device->stop, device->stream), "cuEventRecord");
  bool stuck = openGate();
  if (failed(
          cudaKernel.finishQueued(enqueued, std::move(enqueueError), error)) ||
      !recorded)
    return failure();
  if (stuck) {
    error = llvm::formatv("the host program waited for the stream held at "
                          "the timing gate, which its watchdog opened after "
                          "{0} s: time it without gate-host-programs",
                          kGateWatchdogSeconds)
                .str();
    return failure();
  }
  return elapsedSeconds(api, *device, error);
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
