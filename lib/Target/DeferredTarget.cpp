//===- DeferredTarget.cpp - A target created on its first real use --------===//

#include "stark/Target/DeferredTarget.h"

#ifdef STARK_ENABLE_CUDA
#include "stark/Target/CudaDriver.h"
#endif

using namespace mlir;
using namespace mlir::stark;

DeferredTarget::DeferredTarget(StringRef name, MLIRContext &context)
    : name(name.str()), context(context) {}

std::string DeferredTarget::getUnavailableReason() const {
  if (inner || !createError.empty())
    return inner ? inner->getUnavailableReason() : createError;
  // Without creating it where that is known: the cpu always runs; cuda
  // needs the driver and a device (what createCudaTarget checks first).
  if (name == "cpu")
    return "";
#ifdef STARK_ENABLE_CUDA
  if (name == "cuda") {
    std::string reason;
    return CudaDriverApi::get(reason) ? "" : reason;
  }
#endif
  Target *t = get();
  return t ? t->getUnavailableReason() : createError;
}

std::string DeferredTarget::getDeviceName() const {
  Target *t = get();
  return t ? t->getDeviceName() : "";
}

unsigned DeferredTarget::getDeviceCount() const {
  Target *t = get();
  return t ? t->getDeviceCount() : 0;
}

FailureOr<std::unique_ptr<ArgBuffers>>
DeferredTarget::allocate(const KernelSignature &signature, std::string &error) {
  if (Target *t = use(error))
    return t->allocate(signature, error);
  return failure();
}

FailureOr<std::unique_ptr<CompiledKernel>>
DeferredTarget::compile(ModuleOp module, const KernelSignature &signature,
                        std::string &error) {
  if (Target *t = use(error))
    return t->compile(module, signature, error);
  return failure();
}

LogicalResult DeferredTarget::runRescheduled(CompiledKernel &kernel,
                                             ArgBuffers &args, unsigned variant,
                                             std::string &error) {
  if (Target *t = use(error))
    return t->runRescheduled(kernel, args, variant, error);
  return failure();
}

LogicalResult DeferredTarget::runBackToBack(CompiledKernel &kernel,
                                            ArgBuffers &args, unsigned first,
                                            unsigned second,
                                            std::string &error) {
  if (Target *t = use(error))
    return t->runBackToBack(kernel, args, first, second, error);
  return failure();
}

FailureOr<double> DeferredTarget::timeRun(CompiledKernel &kernel,
                                          ArgBuffers &args,
                                          const TimingRunOptions &options,
                                          std::string &error) {
  if (Target *t = use(error))
    return t->timeRun(kernel, args, options, error);
  return failure();
}

Target *DeferredTarget::get() const {
  if (!inner && createError.empty()) {
    inner = createTarget(name, context, createError);
    if (!inner && createError.empty())
      createError = "target '" + name + "' is not available in this build";
  }
  return inner.get();
}

Target *DeferredTarget::use(std::string &error) {
  Target *t = get();
  if (!t)
    error = createError;
  return t;
}
