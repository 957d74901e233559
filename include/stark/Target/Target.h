//===- Target.h - Where candidates are compiled, run and timed --*- C++ -*-===//
//
// A Target turns a module holding one entry function (memref arguments:
// inputs, then outputs) into something it can run, owns the argument
// buffers on its device, and times one run with its own clock. Everything
// else of the evaluation protocol (inputs, references, comparison, trial
// counts, interleaving) lives in the target-independent Evaluator, so both
// targets are judged by exactly the same rules.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_TARGET_H
#define STARK_TARGET_TARGET_H

#include "stark/Analysis/ElementKind.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir::stark {

/// One argument of a kernel entry: a memref with a static shape.
struct ArgSpec {
  SmallVector<int64_t> shape;
  ElementKind kind = ElementKind::F32;
  bool isOutput = false;
  int64_t numElements() const;
  int64_t sizeInBytes() const;
};

/// The calling convention shared by a problem and its candidates.
struct KernelSignature {
  std::string entry;
  SmallVector<ArgSpec> args; // inputs first, then outputs
};

/// Reads the signature of `entry` in `module`; fails (with `error`) when the
/// function is missing or an argument is not a statically shaped memref of
/// a supported element type. Arguments written by the function are outputs:
/// the trailing `numOutputs` ones.
FailureOr<KernelSignature> getKernelSignature(ModuleOp module, StringRef entry,
                                              unsigned numOutputs,
                                              std::string &error);

/// Host memory for one argument, in the element kind's native layout
/// (row-major, dense; f16/bf16 as raw 16-bit patterns).
struct HostBuffer {
  ArgSpec spec;
  std::vector<uint8_t> bytes;
  explicit HostBuffer(const ArgSpec &spec);
  double getAsDouble(int64_t index) const;
  void setFromDouble(int64_t index, double value);
};

/// An empty buffer standing for an input where only outputs are read back
/// (reference outputs): the input's kind, no elements.
HostBuffer makeInputPlaceholder(const ArgSpec &spec);

/// Whether `host` holds one buffer per argument of `specs`, each of the
/// argument's size; fails with what differs in `error`.
LogicalResult checkHostBuffers(ArrayRef<ArgSpec> specs,
                               ArrayRef<HostBuffer> host, std::string &error);

/// Bytes of the guard region before and after every argument buffer. A
/// multiple of 256, so the argument keeps the alignment of the allocation.
inline constexpr int64_t kGuardBytes = 4096;

/// The guard pattern of argument `argIndex`: kGuardBytes pseudo-random
/// bytes (a different sequence per argument and side), so that no value a
/// kernel computes writes it back by chance.
void fillGuardPattern(MutableArrayRef<uint8_t> guard, unsigned argIndex,
                      bool after);

/// Compares the two guards of argument `argIndex` with their pattern. Empty
/// when both are intact, else what was written: "argument #2: 4 byte(s)
/// after its end were written (first at +0)".
std::string describeGuardDamage(ArrayRef<uint8_t> before,
                                ArrayRef<uint8_t> after, unsigned argIndex);

/// Argument storage owned by a target (host memory for cpu, device memory
/// for cuda). One buffer per argument of the signature it was made for.
/// Every buffer lies between two guard regions of kGuardBytes holding a
/// known pattern: a kernel that writes past either end of an argument
/// changes them, which checkGuards reports.
class ArgBuffers {
public:
  virtual ~ArgBuffers();
  virtual LogicalResult upload(ArrayRef<HostBuffer> host,
                               std::string &error) = 0;
  virtual LogicalResult download(MutableArrayRef<HostBuffer> host,
                                 std::string &error) = 0;
  /// Reads argument `index` alone into `host` (of that argument's size).
  virtual LogicalResult downloadArg(unsigned index, HostBuffer &host,
                                    std::string &error) = 0;
  /// Checks the guard regions of every argument: empty when all are
  /// intact, else the damage of each argument whose guards changed, one
  /// per line; damaged guards get their pattern back. Fails only when the
  /// guards cannot be read.
  virtual FailureOr<std::string> checkGuards(std::string &error) = 0;

  /// Staged input sets: the timed runs rotate among a few sets of
  /// arguments, and must neither pay a host upload per run nor read every
  /// input back to see that it is unchanged. `stage` keeps `sets` (each one
  /// host buffer per argument) where the kernel runs; `restore` puts set
  /// `index` into every argument (the outputs get the set's prefill);
  /// `findChangedInputs` lists the input arguments (not outputs) whose
  /// bytes now differ from set `index`. The default keeps the host sets,
  /// which must then outlive the staging, and uploads and reads back;
  /// targets with device memory keep copies there and compare there.
  virtual LogicalResult stage(ArrayRef<std::vector<HostBuffer>> sets,
                              std::string &error);
  virtual LogicalResult restore(unsigned index, std::string &error);
  virtual FailureOr<SmallVector<unsigned>>
  findChangedInputs(unsigned index, std::string &error);

private:
  ArrayRef<std::vector<HostBuffer>> hostSets;
};

/// Reads the outputs of `args` into `out`, one buffer per argument of `like`
/// (the host buffers they were uploaded from), the inputs as placeholders
/// (makeInputPlaceholder): what reference and candidate outputs are
/// compared from, without reading back every input.
LogicalResult downloadOutputs(ArgBuffers &args, ArrayRef<HostBuffer> like,
                              std::vector<HostBuffer> &out, std::string &error);

/// A compiled, runnable entry function.
class CompiledKernel {
public:
  virtual ~CompiledKernel();
  /// Runs the kernel once on `args` and waits for it to finish.
  virtual LogicalResult run(ArgBuffers &args, std::string &error) = 0;
};

/// Knobs of one timed run.
struct TimingRunOptions {
  /// Evict the last-level cache before the run (L2 on GPUs).
  bool flushCache = true;
  /// Time a lowered host program behind the gate too
  /// (TimingOptions::gateHostPrograms).
  bool gateHostPrograms = false;
  /// Time a lowered host program as a CUDA graph replay
  /// (TimingOptions::graphHostPrograms).
  bool graphHostPrograms = false;
};

class Target {
public:
  virtual ~Target();
  virtual StringRef getName() const = 0;
  /// Empty when the target can run kernels here, otherwise the reason
  /// ("no CUDA device: libcuda.so.1 not found").
  virtual std::string getUnavailableReason() const = 0;
  /// The device kernels run on, as tuning records are keyed by it:
  /// "cpu:<host CPU>" or "cuda:<chip>:<device name>"; empty when the
  /// target is unavailable.
  virtual std::string getDeviceName() const { return getName().str(); }
  /// Devices of this kind the process can see (cuda: those
  /// CUDA_VISIBLE_DEVICES leaves); 0 when the target is unavailable.
  virtual unsigned getDeviceCount() const {
    return getUnavailableReason().empty() ? 1 : 0;
  }

  /// Allocates argument storage for `signature` on the target.
  virtual FailureOr<std::unique_ptr<ArgBuffers>>
  allocate(const KernelSignature &signature, std::string &error) = 0;

  /// Compiles a candidate (or problem) module. The module may be changed
  /// (lowered) in place; callers pass a clone they own.
  virtual FailureOr<std::unique_ptr<CompiledKernel>>
  compile(ModuleOp module, const KernelSignature &signature,
          std::string &error) = 0;

  /// Runs `kernel` once, like CompiledKernel::run, under another schedule
  /// than a plain run gives it, so that its work is placed and ordered
  /// differently (a race that one schedule hides may show in another):
  /// cuda runs it beside a load that keeps part of the device busy for a
  /// while (`variant`, from 1, picks how much and how long); cpu runs its
  /// thread shards one by one, the last first. A target that cannot vary
  /// its schedule runs the kernel as usual.
  virtual LogicalResult runRescheduled(CompiledKernel &kernel, ArgBuffers &args,
                                       unsigned variant, std::string &error) {
    return kernel.run(args, error);
  }

  /// Runs `kernel` on staged input set `first` (ArgBuffers::stage), then at
  /// once on set `second`, as close together as the target can place them,
  /// so that a kernel that acts otherwise when launched soon after itself
  /// (a replay keyed on a clock) shows. The default restores and runs each
  /// in turn; cuda queues both restores and both runs behind its timing
  /// gate, so that no host work or wait falls between them.
  virtual LogicalResult runBackToBack(CompiledKernel &kernel, ArgBuffers &args,
                                      unsigned first, unsigned second,
                                      std::string &error) {
    if (failed(args.restore(first, error)) || failed(kernel.run(args, error)) ||
        failed(args.restore(second, error)))
      return failure();
    return kernel.run(args, error);
  }

  /// Runs `kernel` once and returns the seconds it took, measured with the
  /// target's own clock around the kernel only (device events on GPUs, a
  /// steady clock on the CPU).
  virtual FailureOr<double> timeRun(CompiledKernel &kernel, ArgBuffers &args,
                                    const TimingRunOptions &options,
                                    std::string &error) = 0;
};

/// Creates a target by name ("cpu", "cuda"); null with `error` otherwise.
std::unique_ptr<Target> createTarget(StringRef name, MLIRContext &context,
                                     std::string &error);

/// The dialects a problem or a candidate may be written in, whatever the
/// target: the evaluator parses sources with them, the cuda target lowers
/// them.
void registerCandidateDialects(DialectRegistry &registry);

} // namespace mlir::stark

#endif // STARK_TARGET_TARGET_H
