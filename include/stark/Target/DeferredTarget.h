//===- DeferredTarget.h - A target created on its first real use -*- C++
//-*-===//
//
// Creating the cuda target retains the device's context and allocates its
// buffers: a tenth of a second or more, and device memory. The judge of an
// evaluation whose candidate runs in a runner process needs a device of its
// own only to compute references its store does not hold; a search's
// candidates find theirs in the store, so their judges need none.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_DEFERREDTARGET_H
#define STARK_TARGET_DEFERREDTARGET_H

#include "stark/Target/Target.h"

namespace mlir::stark {

/// The target `name` (createTarget), created on the first call that needs
/// it. getName() never creates it, nor does getUnavailableReason() for the
/// cpu and cuda (whether the driver has a device is known without a
/// context); every other call does, and fails with createTarget's error
/// when it cannot be created.
class DeferredTarget : public Target {
public:
  DeferredTarget(StringRef name, MLIRContext &context);

  /// Whether the target was created (a call needed it).
  bool isCreated() const { return inner != nullptr; }
  /// Creates it now; false, with the reason in `error`, when it cannot be.
  bool create(std::string &error) { return use(error) != nullptr; }

  StringRef getName() const override { return name; }
  std::string getUnavailableReason() const override;
  std::string getDeviceName() const override;
  unsigned getDeviceCount() const override;
  FailureOr<std::unique_ptr<ArgBuffers>>
  allocate(const KernelSignature &signature, std::string &error) override;
  FailureOr<std::unique_ptr<CompiledKernel>>
  compile(ModuleOp module, const KernelSignature &signature,
          std::string &error) override;
  LogicalResult runRescheduled(CompiledKernel &kernel, ArgBuffers &args,
                               unsigned variant, std::string &error) override;
  LogicalResult runBackToBack(CompiledKernel &kernel, ArgBuffers &args,
                              unsigned first, unsigned second,
                              std::string &error) override;
  FailureOr<double> timeRun(CompiledKernel &kernel, ArgBuffers &args,
                            const TimingRunOptions &options,
                            std::string &error) override;

private:
  Target *get() const;
  Target *use(std::string &error);

  std::string name;
  MLIRContext &context;
  mutable std::unique_ptr<Target> inner;
  mutable std::string createError;
};

} // namespace mlir::stark

#endif // STARK_TARGET_DEFERREDTARGET_H
