//===- CpuTarget.cpp - Candidates on the host through the ORC JIT ---------===//
//
// The plain upstream lowering (the same one every candidate and the baseline
// go through, so only the IR they start from differs) followed by the MLIR
// ExecutionEngine at O3. Arguments are passed as ranked memref descriptors
// through the `_mlir_ciface_` wrapper of the entry function.
//
//===----------------------------------------------------------------------===//

#include "stark/Target/CpuTarget.h"
#include "stark/Analysis/HardwareProfile.h"
#include "stark/Target/BufferLowering.h"
#include "stark/Target/LoweredGuards.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace mlir;
using namespace mlir::stark;

namespace {

/// Frees memory from std::aligned_alloc.
struct FreeDeleter {
  void operator()(uint8_t *p) const { std::free(p); }
};
using AlignedBytes = std::unique_ptr<uint8_t, FreeDeleter>;

constexpr size_t kBufferAlignment = 64;

/// Host buffers plus one memref descriptor per argument, laid out as the
/// LLVM lowering expects: {allocated, aligned, offset, sizes[r], strides[r]}.
class CpuArgBuffers : public ArgBuffers {
public:
  explicit CpuArgBuffers(const KernelSignature &signature) {
    size_t n = signature.args.size();
    specs.assign(signature.args.begin(), signature.args.end());
    storage.reserve(n);
    descriptors.resize(n);
    for (auto [i, spec] : llvm::enumerate(specs)) {
      // Round up to the alignment: aligned_alloc requires a multiple of it,
      // and a zero-sized allocation would give no usable pointer. The
      // rounding is part of the guard after the argument.
      size_t bytes = std::max<size_t>(spec.sizeInBytes(), 1);
      bytes = (bytes + 2 * kGuardBytes + kBufferAlignment - 1) /
              kBufferAlignment * kBufferAlignment;
      auto *p =
          static_cast<uint8_t *>(std::aligned_alloc(kBufferAlignment, bytes));
      storage.emplace_back(p);
      allocatedBytes.push_back(bytes);
      if (!p)
        continue;
      std::memset(p + kGuardBytes, 0, spec.sizeInBytes());
      resetGuards(i);
    }
    for (size_t i = 0; i < n; ++i) {
      const ArgSpec &spec = specs[i];
      int64_t rank = spec.shape.size();
      std::vector<int64_t> &d = descriptors[i];
      d.assign(3 + 2 * rank, 0);
      auto ptr = reinterpret_cast<int64_t>(getData(i));
      d[0] = ptr; // allocated
      d[1] = ptr; // aligned
      d[2] = 0;   // offset
      int64_t stride = 1;
      for (int64_t r = rank - 1; r >= 0; --r) {
        d[3 + r] = spec.shape[r];
        d[3 + rank + r] = stride;
        stride *= spec.shape[r];
      }
    }
    // The packed wrapper of `_mlir_ciface_<entry>` takes, per argument, a
    // pointer to the argument value, which is itself a descriptor pointer.
    descriptorPtrs.resize(n);
    packed.resize(n);
    for (size_t i = 0; i < n; ++i) {
      descriptorPtrs[i] = descriptors[i].data();
      packed[i] = &descriptorPtrs[i];
    }
  }

  bool isValid() const {
    return llvm::all_of(storage, [](const AlignedBytes &p) { return !!p; });
  }

  LogicalResult upload(ArrayRef<HostBuffer> host, std::string &error) override {
    if (failed(checkHostBuffers(specs, host, error))) {
      error = "upload: " + error;
      return failure();
    }
    for (auto [i, buffer] : llvm::enumerate(host))
      if (!buffer.bytes.empty())
        std::memcpy(getData(i), buffer.bytes.data(), buffer.bytes.size());
    return success();
  }

  LogicalResult download(MutableArrayRef<HostBuffer> host,
                         std::string &error) override {
    if (host.size() != specs.size()) {
      error = llvm::formatv("download: {0} host buffers for {1} arguments",
                            host.size(), specs.size())
                  .str();
      return failure();
    }
    for (auto [i, buffer] : llvm::enumerate(host)) {
      buffer.bytes.resize(specs[i].sizeInBytes());
      if (!buffer.bytes.empty())
        std::memcpy(buffer.bytes.data(), getData(i), buffer.bytes.size());
    }
    return success();
  }

  LogicalResult downloadArg(unsigned index, HostBuffer &host,
                            std::string &error) override {
    if (index >= specs.size()) {
      error = llvm::formatv("download: no argument #{0}", index).str();
      return failure();
    }
    host.bytes.resize(specs[index].sizeInBytes());
    if (!host.bytes.empty())
      std::memcpy(host.bytes.data(), getData(index), host.bytes.size());
    return success();
  }

  FailureOr<std::string> checkGuards(std::string &) override {
    std::string damage;
    for (size_t i = 0; i < specs.size(); ++i) {
      std::string d =
          describeGuardDamage(getGuardBefore(i), getGuardAfter(i), unsigned(i));
      if (d.empty())
        continue;
      damage += (damage.empty() ? "" : "\n") + d;
      resetGuards(i);
    }
    return damage;
  }

  void **getPackedArgs() { return packed.data(); }
  size_t getNumArgs() const { return packed.size(); }

private:
  uint8_t *getData(size_t i) const { return storage[i].get() + kGuardBytes; }
  MutableArrayRef<uint8_t> getGuardBefore(size_t i) const {
    return {storage[i].get(), size_t(kGuardBytes)};
  }
  /// From the end of the argument to the end of the allocation.
  MutableArrayRef<uint8_t> getGuardAfter(size_t i) const {
    size_t end = kGuardBytes + specs[i].sizeInBytes();
    return {storage[i].get() + end, allocatedBytes[i] - end};
  }
  void resetGuards(size_t i) {
    fillGuardPattern(getGuardBefore(i), unsigned(i), /*after=*/false);
    fillGuardPattern(getGuardAfter(i), unsigned(i), /*after=*/true);
  }

  std::vector<ArgSpec> specs;
  std::vector<AlignedBytes> storage;
  std::vector<size_t> allocatedBytes;
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> descriptorPtrs;
  std::vector<void *> packed;
};

/// One call of a sharded kernel: the arguments of each shard and which
/// shards are claimed and done (shared with the pool's tasks, which may
/// outlive the call).
struct ShardRun {
  int64_t shards = 0;
  std::vector<int64_t> index;
  std::vector<std::vector<void *>> args;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
  std::mutex mutex;
  std::condition_variable finished;
};

class CpuKernel : public CompiledKernel {
public:
  CpuKernel(std::unique_ptr<ExecutionEngine> engine, void (*fn)(void **))
      : engine(std::move(engine)), fn(fn) {}

  /// Runs `shard(args..., i, threads)` for every i, on the caller's and
  /// the pool's threads, instead of the entry function (see
  /// shardParallelLoop).
  void setShards(void (*shardFn)(void **), int64_t numThreads) {
    shard = shardFn;
    threads = numThreads;
    // The caller works too; the pool's threads start on first use.
    pool = std::make_unique<llvm::StdThreadPool>(
        llvm::hardware_concurrency(numThreads - 1));
  }

  LogicalResult run(ArgBuffers &args, std::string &) override {
    // The evaluator only ever passes buffers this target allocated.
    void **packed = static_cast<CpuArgBuffers &>(args).getPackedArgs();
    if (!shard) {
      fn(packed);
      return success();
    }
    // Whoever is free claims the next shard: the caller and the pool's
    // threads. On a busy host a pool thread may start late; the caller then
    // runs the shards itself instead of waiting for the thread to be
    // scheduled, and the call ends once every shard has run. A thread that
    // starts after that finds none left and touches only `state`.
    std::shared_ptr<ShardRun> state = makeShardRun(args);
    auto work = [state, shardFn = shard] {
      for (int64_t t; (t = state->next.fetch_add(1)) < state->shards;) {
        shardFn(state->args[t].data());
        if (state->done.fetch_add(1) + 1 == state->shards) {
          std::lock_guard<std::mutex> lock(state->mutex);
          state->finished.notify_all();
        }
      }
    };
    for (int64_t t = 1; t < threads; ++t)
      pool->async(work);
    work();
    std::unique_lock<std::mutex> lock(state->mutex);
    state->finished.wait(lock,
                         [&] { return state->done.load() == state->shards; });
    return success();
  }

  /// Runs the shards one after another on the caller's thread, the last
  /// first: another order than any parallel run is likely to take.
  void runShardsInReverse(ArgBuffers &args) {
    if (!shard) {
      fn(static_cast<CpuArgBuffers &>(args).getPackedArgs());
      return;
    }
    std::shared_ptr<ShardRun> state = makeShardRun(args);
    for (int64_t t = threads - 1; t >= 0; --t)
      shard(state->args[t].data());
  }

private:
  /// Each shard's packed arguments: the kernel's, its index and the count.
  std::shared_ptr<ShardRun> makeShardRun(ArgBuffers &args) const {
    void **packed = static_cast<CpuArgBuffers &>(args).getPackedArgs();
    auto state = std::make_shared<ShardRun>();
    state->shards = threads;
    size_t numArgs = static_cast<CpuArgBuffers &>(args).getNumArgs();
    state->index.resize(threads);
    state->args.resize(threads);
    for (int64_t t = 0; t < threads; ++t) {
      state->index[t] = t;
      state->args[t].assign(packed, packed + numArgs);
      state->args[t].push_back(&state->index[t]);
      state->args[t].push_back(&state->shards);
    }
    return state;
  }

  std::unique_ptr<ExecutionEngine> engine;
  void (*fn)(void **);
  void (*shard)(void **) = nullptr;
  int64_t threads = 1;
  std::unique_ptr<llvm::StdThreadPool> pool;
};

/// Collects diagnostics emitted while lowering, as "loc: severity: message".
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Remark)
            return success();
          llvm::raw_string_ostream os(text);
          if (!text.empty())
            os << "\n";
          os << diag.getLocation() << ": "
             << (diag.getSeverity() == DiagnosticSeverity::Error ? "error"
                                                                 : "note")
             << ": " << diag;
          for (Diagnostic &note : diag.getNotes())
            os << "\n" << note.getLocation() << ": note: " << note;
          return success();
        }) {}
  std::string text;

private:
  ScopedDiagnosticHandler handler;
};

class CpuTarget : public Target {
public:
  explicit CpuTarget(MLIRContext &context) : context(context) {
    static std::once_flag once;
    std::call_once(once, [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
    });
    registerBuiltinDialectTranslation(context);
    registerLLVMDialectTranslation(context);
  }

  StringRef getName() const override { return "cpu"; }
  std::string getDeviceName() const override {
    return "cpu:" + llvm::sys::getHostCPUName().str();
  }
  std::string getUnavailableReason() const override { return ""; }

  FailureOr<std::unique_ptr<ArgBuffers>>
  allocate(const KernelSignature &signature, std::string &error) override {
    auto buffers = std::make_unique<CpuArgBuffers>(signature);
    if (!buffers->isValid()) {
      error = "out of host memory for the kernel arguments";
      return failure();
    }
    return std::unique_ptr<ArgBuffers>(std::move(buffers));
  }

  FailureOr<std::unique_ptr<CompiledKernel>>
  compile(ModuleOp module, const KernelSignature &signature,
          std::string &error) override;

  LogicalResult runRescheduled(CompiledKernel &kernel, ArgBuffers &args,
                               unsigned, std::string &) override {
    // The evaluator only ever passes kernels and buffers of this target.
    static_cast<CpuKernel &>(kernel).runShardsInReverse(args);
    return success();
  }

  FailureOr<double> timeRun(CompiledKernel &kernel, ArgBuffers &args,
                            const TimingRunOptions &options,
                            std::string &error) override {
    if (options.flushCache)
      flushLastLevelCache();
    auto start = std::chrono::steady_clock::now();
    if (failed(kernel.run(args, error)))
      return failure();
    auto stop = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(stop - start).count();
  }

private:
  /// Writes then reads a buffer twice the size of the last-level cache so no
  /// line of the kernel's arguments survives from the previous run.
  void flushLastLevelCache() {
    if (flushBuffer.empty()) {
      int64_t llc = getHostProfile().l2Bytes;
      flushBuffer.assign(std::max<int64_t>(2 * llc, 64LL << 20), 0);
    }
    ++flushRound;
    uint64_t sum = 0;
    for (size_t i = 0, e = flushBuffer.size(); i < e; i += 64) {
      flushBuffer[i] = uint8_t(flushRound + i);
      sum += flushBuffer[i];
    }
    flushSink = sum; // keeps the loop from being optimised away
  }

  MLIRContext &context;
  std::vector<uint8_t> flushBuffer;
  uint8_t flushRound = 0;
  volatile uint64_t flushSink = 0;
};

} // namespace

/// `memref.copy` between non-contiguous memrefs lowers to a call of
/// `memrefCopy(elemSize, UnrankedMemRef *src, UnrankedMemRef *dst)`, which
/// upstream lives in libmlir_c_runner_utils. A static stark has no such
/// library to load, so the target provides the function itself. Both
/// descriptors are {allocated, aligned, offset, sizes[rank], strides[rank]}.
namespace {
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};
} // namespace

static void starkMemrefCopy(int64_t elemSize, UnrankedDescriptor *src,
                            UnrankedDescriptor *dst) {
  int64_t rank = src->rank;
  auto field = [](void *d, int64_t i) {
    int64_t v;
    std::memcpy(&v, static_cast<char *>(d) + 8 * i, 8);
    return v;
  };
  auto *srcBase = reinterpret_cast<char *>(field(src->descriptor, 1)) +
                  field(src->descriptor, 2) * elemSize;
  auto *dstBase = reinterpret_cast<char *>(field(dst->descriptor, 1)) +
                  field(dst->descriptor, 2) * elemSize;
  SmallVector<int64_t> sizes, srcStrides, dstStrides;
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(field(src->descriptor, 3 + d));
    srcStrides.push_back(field(src->descriptor, 3 + rank + d));
    dstStrides.push_back(field(dst->descriptor, 3 + rank + d));
    if (sizes.back() == 0)
      return;
  }
  // Odometer over every element, last dimension fastest.
  SmallVector<int64_t> index(rank, 0);
  int64_t srcOffset = 0, dstOffset = 0;
  while (true) {
    std::memcpy(dstBase + dstOffset * elemSize, srcBase + srcOffset * elemSize,
                elemSize);
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      ++index[d];
      srcOffset += srcStrides[d];
      dstOffset += dstStrides[d];
      if (index[d] < sizes[d])
        break;
      srcOffset -= srcStrides[d] * sizes[d];
      dstOffset -= dstStrides[d] * sizes[d];
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// The plain upstream lowering to the LLVM dialect; mirrors mlir-opt's
/// `test-lower-to-llvm` so what a candidate gains is its own IR. Split in
/// two around the bf16 expansion (see lowerModuleForCpu).
static void buildCpuPreLowering(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass());
  // Math on anything narrower than f32 is computed in f32 and rounded.
  pm.addPass(math::createMathExtendToSupportedTypes());
  arith::ArithEmulateUnsupportedFloatsOptions bf16;
  bf16.sourceTypeStrs = {"bf16"};
  bf16.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(bf16));
}

static void buildCpuLowering(OpPassManager &pm) {
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Libm calls on n-D vectors (math.erf on vector<2x256xf32>) are unrolled
  // into vector extracts and inserts, which need the vector lowering again.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult mlir::stark::lowerModuleForCpu(ModuleOp module, StringRef entry,
                                             std::string &error) {
  MLIRContext &context = *module.getContext();
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    error = llvm::formatv("no function body named '{0}'", entry).str();
    return failure();
  }
  func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                UnitAttr::get(&context));

  if (failed(decomposeSoftmaxOnBuffers(module, error)))
    return failure();

  DiagnosticCollector diagnostics(context);
  auto fail = [&](StringRef what) {
    error = what.str();
    if (!diagnostics.text.empty())
      error += ":\n" + diagnostics.text;
    return failure();
  };
  PassManager pre(&context);
  buildCpuPreLowering(pre);
  if (failed(pre.run(module)))
    return fail("lowering to the LLVM dialect failed");
  promoteLoopAccumulators(module);
  // bf16 arithmetic is now f32 between extf/truncf. Expanding those two into
  // integer code keeps LLVM from calling __truncsfbf2, which hosts without
  // AVX512-BF16 only find in a libgcc newer than GCC 12's.
  RewritePatternSet bf16(&context);
  arith::populateExpandBFloat16Patterns(bf16);
  if (failed(applyPatternsGreedily(module, std::move(bf16))))
    return fail("expanding bf16 conversions did not converge");
  PassManager pm(&context);
  buildCpuLowering(pm);
  if (failed(pm.run(module)))
    return fail("lowering to the LLVM dialect failed");

  // Conversions are partial: name what is left instead of letting the LLVM
  // IR translation fail on it with less context.
  Operation *leftover = nullptr;
  module.walk([&](Operation *op) {
    if (isa<ModuleOp>(op) || isa<LLVM::LLVMDialect>(op->getDialect()))
      return WalkResult::advance();
    leftover = op;
    return WalkResult::interrupt();
  });
  if (leftover) {
    std::string where;
    llvm::raw_string_ostream(where) << leftover->getLoc();
    error = llvm::formatv("the cpu lowering cannot convert '{0}' at {1} (it "
                          "handles linalg, affine, scf, cf, vector, memref, "
                          "arith, math, index, ub, func and llvm ops)",
                          leftover->getName(), where)
                .str();
    return failure();
  }
  return success();
}

/// Multithreading without a runtime library: a copy of the entry function
/// that takes (shard, shards) after its arguments and runs only its block
/// of the iterations of the entry's outermost `scf.parallel`, as one
/// sequential loop over the linearised iteration space. The target calls
/// it once per thread; the entry function itself stays serial.
static FailureOr<std::string>
shardParallelLoop(ModuleOp module, StringRef entry, std::string &error) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    error = llvm::formatv("no function body named '{0}'", entry).str();
    return failure();
  }
  auto firstParallel = [](func::FuncOp f) -> scf::ParallelOp {
    for (Operation &op : f.getBody().front())
      if (auto parallel = dyn_cast<scf::ParallelOp>(op))
        return parallel;
    return nullptr;
  };
  if (!firstParallel(func) || firstParallel(func).getNumResults() != 0) {
    error = llvm::formatv("'{0}' asks for threads but the body of '{1}' has "
                          "no top-level scf.parallel without results",
                          kCpuThreadsAttr, entry)
                .str();
    return failure();
  }
  // Every shard runs the rest of the body too: it must not write anything.
  for (Operation &op : func.getBody().front().without_terminator())
    if (!isa<scf::ParallelOp>(op) && !isMemoryEffectFree(&op)) {
      error = llvm::formatv("'{0}' asks for threads but '{1}' in the body of "
                            "'{2}' has side effects outside the scf.parallel",
                            kCpuThreadsAttr, op.getName(), entry)
                  .str();
      return failure();
    }
  std::string name = (entry + "__stark_shard").str();
  auto shardFunc = cast<func::FuncOp>(func->clone());
  shardFunc.setSymName(name);
  module.getBody()->push_back(shardFunc);
  MLIRContext *ctx = module.getContext();
  Location loc = func.getLoc();
  IndexType indexType = IndexType::get(ctx);
  unsigned numArgs = shardFunc.getNumArguments();
  if (failed(shardFunc.insertArguments(
          {numArgs, numArgs}, {indexType, indexType}, {{}, {}}, {loc, loc}))) {
    error = "cannot add the shard arguments";
    return failure();
  }
  Value shard = shardFunc.getArgument(numArgs);
  Value shards = shardFunc.getArgument(numArgs + 1);
  shardFunc->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                     UnitAttr::get(ctx));

  scf::ParallelOp parallel = firstParallel(shardFunc);
  OpBuilder b(parallel);
  Location ploc = parallel.getLoc();
  // Iterations per dimension, their product, and this shard's block.
  SmallVector<Value> counts;
  Value total = arith::ConstantIndexOp::create(b, ploc, 1);
  for (auto [lb, ub, step] :
       llvm::zip(parallel.getLowerBound(), parallel.getUpperBound(),
                 parallel.getStep())) {
    Value extent = arith::SubIOp::create(b, ploc, ub, lb);
    Value count = arith::CeilDivUIOp::create(b, ploc, extent, step);
    counts.push_back(count);
    total = arith::MulIOp::create(b, ploc, total, count);
  }
  Value chunk = arith::CeilDivUIOp::create(b, ploc, total, shards);
  Value begin = arith::MulIOp::create(b, ploc, shard, chunk);
  Value end = arith::MinUIOp::create(
      b, ploc, arith::AddIOp::create(b, ploc, begin, chunk), total);
  begin = arith::MinUIOp::create(b, ploc, begin, total);
  Value one = arith::ConstantIndexOp::create(b, ploc, 1);
  auto loop = scf::ForOp::create(b, ploc, begin, end, one);
  b.setInsertionPointToStart(loop.getBody());
  // Delinearise, last dimension fastest.
  IRMapping mapping;
  Value rest = loop.getInductionVar();
  for (int64_t d = counts.size() - 1; d >= 0; --d) {
    Value position = arith::RemUIOp::create(b, ploc, rest, counts[d]);
    rest = arith::DivUIOp::create(b, ploc, rest, counts[d]);
    Value iv = arith::AddIOp::create(
        b, ploc, parallel.getLowerBound()[d],
        arith::MulIOp::create(b, ploc, position, parallel.getStep()[d]));
    mapping.map(parallel.getInductionVars()[d], iv);
  }
  for (Operation &op : parallel.getBody()->without_terminator())
    b.clone(op, mapping);
  parallel.erase();
  return name;
}

FailureOr<std::unique_ptr<CompiledKernel>>
CpuTarget::compile(ModuleOp module, const KernelSignature &signature,
                   std::string &error) {
  int64_t threads = 1;
  if (auto attr = module->getAttrOfType<IntegerAttr>(kCpuThreadsAttr))
    threads = attr.getInt();
  if (threads < 1 || threads > kMaxCpuThreads) {
    error = llvm::formatv("'{0}' must be between 1 and {1}, got {2}",
                          kCpuThreadsAttr, kMaxCpuThreads, threads)
                .str();
    return failure();
  }
  std::string shardName;
  if (threads > 1) {
    FailureOr<std::string> name =
        shardParallelLoop(module, signature.entry, error);
    if (failed(name))
      return failure();
    shardName = *name;
  }
  if (failed(lowerModuleForCpu(module, signature.entry, error)))
    return failure();
  // A candidate may be adversarial: no state, no assembly, and no calls
  // outside the runtime functions below.
  if (failed(checkLoweredModule(module, isHostRuntimeSymbol, error)))
    return failure();
  DiagnosticCollector diagnostics(context);

  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) {
    error = "cannot describe the host for the JIT: " +
            llvm::toString(builder.takeError());
    return failure();
  }
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = builder->createTargetMachine();
  if (!machine) {
    error = "cannot create the host target machine: " +
            llvm::toString(machine.takeError());
    return failure();
  }
  // The transformer runs inside ExecutionEngine::create, while the engine
  // already owns the target machine it points to.
  auto transformer = makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                               machine->get());
  // The ORC JIT resolves undefined symbols from the whole process (all of
  // libc); the module reaching it may name only the runtime functions.
  std::string linkError;
  auto buildModule =
      [&](Operation *op,
          llvm::LLVMContext &llvmContext) -> std::unique_ptr<llvm::Module> {
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(op, llvmContext, "stark-cpu");
    if (llvmModule &&
        failed(checkLinkedSymbols(*llvmModule, isHostRuntimeSymbol, linkError)))
      return nullptr;
    return llvmModule;
  };
  ExecutionEngineOptions options;
  options.llvmModuleBuilder = buildModule;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(module, options, std::move(*machine));
  if (!engine && !linkError.empty()) {
    llvm::consumeError(engine.takeError());
    error = linkError;
    return failure();
  }
  if (!engine) {
    error = "JIT compilation failed: " + llvm::toString(engine.takeError());
    if (!diagnostics.text.empty())
      error += "\n" + diagnostics.text;
    return failure();
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("memrefCopy")] =
        llvm::orc::ExecutorSymbolDef::fromPtr(&starkMemrefCopy);
    return symbols;
  });
  std::string wrapper = "_mlir_ciface_" + signature.entry;
  auto fn = (*engine)->lookupPacked(wrapper);
  if (!fn) {
    error = llvm::formatv("JIT: cannot find '{0}': {1}", wrapper,
                          llvm::toString(fn.takeError()))
                .str();
    return failure();
  }
  void (*shardFn)(void **) = nullptr;
  if (!shardName.empty()) {
    auto found = (*engine)->lookupPacked("_mlir_ciface_" + shardName);
    if (!found) {
      error = llvm::formatv("JIT: cannot find the shard function: {0}",
                            llvm::toString(found.takeError()))
                  .str();
      return failure();
    }
    shardFn = *found;
  }
  auto kernel = std::make_unique<CpuKernel>(std::move(*engine), *fn);
  if (shardFn)
    kernel->setShards(shardFn, threads);
  return std::unique_ptr<CompiledKernel>(std::move(kernel));
}

std::unique_ptr<Target> mlir::stark::createCpuTarget(MLIRContext &context) {
  return std::make_unique<CpuTarget>(context);
}
