//===- CudaCompile.cpp - Candidates to PTX and cubin, without a GPU -------===//

#include "stark/Target/CudaCompile.h"
#include "stark/Analysis/CostModel.h"
#include "stark/Target/BufferLowering.h"
#include "stark/Target/CudaDriver.h"
#include "stark/Target/CudaRuntime.h"
#include "stark/Target/LoweredGuards.h"
#include "stark/Target/PtxGuards.h"
#include "stark/Target/Target.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUCommon/GPUToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include <memory>
#include <mutex>

using namespace mlir;
using namespace mlir::stark;

CudaArch CudaArch::forComputeCapability(int major, int minor) {
  CudaArch arch;
  int cc = major * 10 + minor;
  // The PTX ISA that first has each arch-specific target.
  switch (cc) {
  case 90:
    arch.chip = "sm_90a";
    arch.features = "+ptx80";
    return arch;
  case 100:
    arch.chip = "sm_100a";
    arch.features = "+ptx86";
    return arch;
  case 120:
    arch.chip = "sm_120a";
    arch.features = "+ptx87";
    return arch;
  default:
    arch.chip = llvm::formatv("sm_{0}", cc).str();
    arch.features = "";
    return arch;
  }
}

void mlir::stark::registerCudaTargetDialects(DialectRegistry &registry) {
  registerCandidateDialects(registry);
  // gpu-to-llvm and convert-gpu-to-nvvm find the patterns of the dialects
  // they meet through these interfaces.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  gpu::registerConvertGpuToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
  // gpu-module-to-binary serialises through the #nvvm.target interface;
  // the host JIT translates gpu.binary and gpu.launch_func.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

void mlir::stark::initializeNvptxBackend() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

//===----------------------------------------------------------------------===//
// Baseline: host linalg to gpu.launch
//===----------------------------------------------------------------------===//

/// Ops that read or write memrefs, allocate or free them: on the host these
/// would dereference device pointers.
static bool touchesMemory(Operation *op) {
  bool touches = false;
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    if (isa<gpu::GPUDialect>(nested->getDialect()))
      return WalkResult::skip();
    auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!iface)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      Value value = effect.getValue();
      if (value && isa<BaseMemRefType>(value.getType())) {
        touches = true;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return touches;
}

/// Whether `op` is, or holds, host code that moveAllocationsToDevice made:
/// a stream wait, a device allocation or free (or the scf.if of a
/// conditional free). It must stay on the host: no kernel can wait for a
/// stream or allocate.
static bool holdsHostGpuOps(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<gpu::WaitOp, gpu::AllocOp, gpu::DeallocOp>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` (holding host GPU ops) is part of a device allocation: the
/// allocation, the stream wait it starts from or the one that ends it.
static bool isPartOfAllocation(Operation *op) {
  if (isa<gpu::AllocOp>(op))
    return true;
  auto wait = dyn_cast<gpu::WaitOp>(op);
  if (!wait)
    return false;
  if (Value token = wait.getAsyncToken())
    return llvm::any_of(token.getUsers(), llvm::IsaPred<gpu::AllocOp>);
  return llvm::any_of(wait.getAsyncDependencies(), [](Value v) {
    return isa_and_nonnull<gpu::AllocOp>(v.getDefiningOp());
  });
}

/// Moves `op` (host code) out of `launch`, after `insertAfter`: the pure ops
/// of the launch it reads (the condition of a conditional free) are cloned
/// there first. Fails, leaving `op` where it is, when it reads a value the
/// launch computes otherwise.
static LogicalResult moveOutOfLaunch(Operation *op, gpu::LaunchOp launch,
                                     Operation *&insertAfter) {
  llvm::SetVector<Value> reads;
  reads.insert(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), reads);
  // The launch's ops that `op` reads, transitively, in program order.
  llvm::SetVector<Operation *> producers;
  SmallVector<Value> stack(reads.begin(), reads.end());
  while (!stack.empty()) {
    Operation *def = stack.pop_back_val().getDefiningOp();
    if (!def || !launch->isProperAncestor(def) || producers.contains(def))
      continue;
    if (!isMemoryEffectFree(def) || def->getNumRegions() != 0)
      return failure();
    producers.insert(def);
    llvm::append_range(stack, def->getOperands());
  }
  SmallVector<Operation *> ordered = producers.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  if (llvm::any_of(ordered, [&](Operation *p) {
        return p->getBlock() != &launch.getBody().front();
      }))
    return failure();
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(insertAfter);
  IRMapping mapping;
  for (Operation *p : ordered)
    b.clone(*p, mapping);
  op->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
  op->walk([&](Operation *nested) {
    for (OpOperand &operand : nested->getOpOperands())
      if (Value mapped = mapping.lookupOrNull(operand.get()))
        operand.set(mapped);
  });
  insertAfter = op;
  return success();
}

/// Loop nests without a parallel loop (a full reduction, a 0-d op) would
/// stay on the host. They move into a gpu.launch of one thread, which is
/// slow but is what the op asks for. (A one-iteration scf.parallel would be
/// folded away by the canonicalizer before it is mapped.)
static void wrapSerialHostCode(func::FuncOp func) {
  if (func.isExternal())
    return;
  Block &body = func.getBody().front();
  SmallVector<Operation *> toWrap;
  for (Operation &op : body.without_terminator()) {
    if (isa<scf::ParallelOp>(op) || isa<gpu::GPUDialect>(op.getDialect()) ||
        !touchesMemory(&op))
      continue;
    toWrap.push_back(&op);
  }
  if (toWrap.empty())
    return;

  // An op whose results feed later ops cannot move alone: everything from
  // it to the last op that reads its results (transitively) moves into one
  // launch; the code after that (later kernels) stays where it is.
  SmallVector<SmallVector<Operation *>> groups;
  Operation *covered = nullptr;
  for (Operation *op : toWrap) {
    if (covered && !covered->isBeforeInBlock(op))
      continue;
    Operation *last = op;
    SmallVector<Operation *> readers = {op};
    llvm::SmallPtrSet<Operation *, 8> seen = {op};
    while (!readers.empty()) {
      Operation *reader = readers.pop_back_val();
      for (Value result : reader->getResults())
        for (Operation *user : result.getUsers()) {
          Operation *top = body.findAncestorOpInBlock(*user);
          if (!top || top == body.getTerminator() || !seen.insert(top).second)
            continue;
          if (last->isBeforeInBlock(top))
            last = top;
          readers.push_back(top);
        }
    }
    SmallVector<Operation *> group;
    for (Operation *it = op;; it = it->getNextNode()) {
      group.push_back(it);
      if (it == last)
        break;
    }
    covered = last;
    groups.push_back(std::move(group));
  }

  for (ArrayRef<Operation *> group : groups) {
    // Host code in the group (the device temporaries of later ops, their
    // frees) stays on the host: allocations before the launch, the rest
    // after it.
    SmallVector<Operation *> before, after;
    for (Operation *op : group)
      if (group.size() > 1 && holdsHostGpuOps(op))
        (isPartOfAllocation(op) ? before : after).push_back(op);
    OpBuilder builder(group.front());
    for (Operation *op : before)
      op->moveBefore(group.front());
    Location loc = group.front()->getLoc();
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    auto launch =
        gpu::LaunchOp::create(builder, loc, one, one, one, one, one, one);
    Block &launchBody = launch.getBody().front();
    builder.setInsertionPointToEnd(&launchBody);
    auto terminator = gpu::TerminatorOp::create(builder, loc);
    for (Operation *op : group)
      if (!llvm::is_contained(before, op))
        op->moveBefore(terminator);
    Operation *insertAfter = launch;
    for (Operation *op : after)
      (void)moveOutOfLaunch(op, launch, insertAfter);
  }
}

/// Serial loops outside parallel ones cannot be mapped: a reduction over
/// an outer dimension (a column sum) would become a host loop around a
/// kernel launch. The baseline puts the parallel dimensions of each generic
/// first, which changes no result (every point is still visited once, and
/// each output element sees its reduction in the same order).
static void interchangeParallelFirst(func::FuncOp func) {
  SmallVector<linalg::LinalgOp> ops;
  func.walk([&](linalg::LinalgOp op) {
    SmallVector<utils::IteratorType> its = op.getIteratorTypesArray();
    bool seenReduction = false;
    for (utils::IteratorType it : its) {
      if (it == utils::IteratorType::reduction)
        seenReduction = true;
      else if (seenReduction) {
        ops.push_back(op);
        return;
      }
    }
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::LinalgOp op : ops) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generic =
        isa<linalg::GenericOp>(op) ? cast<linalg::GenericOp>(op.getOperation())
                                   : linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      continue;
    SmallVector<unsigned> order;
    generic->getParallelDims(order);
    generic->getReductionDims(order);
    (void)linalg::interchangeGenericOp(rewriter, *generic, order);
  }
}

/// Whether `op` is host code: not inside a loop nest that becomes a kernel.
static bool isOnHost(Operation *op) {
  return !op->getParentOfType<scf::ParallelOp>() &&
         !op->getParentOfType<gpu::LaunchOp>();
}

/// Temporaries a problem allocates on the host live on the device: kernels
/// read and write them. A whole program frees some of them conditionally
/// (inside the scf.if of its deallocation pipeline), so nested frees move
/// too.
static void moveAllocationsToDevice(func::FuncOp func) {
  SmallVector<Operation *> allocs;
  func.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::DeallocOp>(op) && isOnHost(op))
      allocs.push_back(op);
  });
  // gpu-to-llvm lowers only the asynchronous forms: each runs on a stream
  // of its own that is waited for at once.
  for (Operation *op : allocs) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type tokenType = gpu::AsyncTokenType::get(b.getContext());
    Value start =
        gpu::WaitOp::create(b, loc, tokenType, ValueRange()).getAsyncToken();
    Value done;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      auto gpuAlloc = gpu::AllocOp::create(
          b, loc, alloc.getType(), tokenType, ValueRange{start},
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/false);
      alloc.getResult().replaceAllUsesWith(gpuAlloc.getMemref());
      done = gpuAlloc.getAsyncToken();
    } else {
      done = gpu::DeallocOp::create(b, loc, tokenType, ValueRange{start},
                                    cast<memref::DeallocOp>(op).getMemref())
                 .getAsyncToken();
    }
    gpu::WaitOp::create(b, loc, Type(), ValueRange{done});
    op->erase();
  }
}

/// A copy between buffers (what bufferization leaves where a program
/// returns a constant or an argument) lowers on the host to a memcpy or a
/// call of the C runtime, which would read device memory there: it becomes
/// a linalg.copy, which maps to a kernel like every other op.
static void convertCopiesToKernels(func::FuncOp func) {
  SmallVector<memref::CopyOp> copies;
  func.walk([&](memref::CopyOp copy) {
    if (isOnHost(copy))
      copies.push_back(copy);
  });
  for (memref::CopyOp copy : copies) {
    OpBuilder b(copy);
    linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy.erase();
  }
}

/// The memref.globals that host code reads (the constants and weights of
/// a whole program), with their sizes in bytes.
static llvm::StringMap<uint64_t> collectHostGlobals(ModuleOp module) {
  llvm::StringMap<uint64_t> globals;
  for (auto global : module.getOps<memref::GlobalOp>()) {
    MemRefType type = global.getType();
    FailureOr<int64_t> bytes = getElementByteSize(type.getElementType());
    if (!type.hasStaticShape() || failed(bytes))
      continue;
    globals[global.getSymName()] = *bytes * type.getNumElements();
  }
  return globals;
}

/// Host code must hand kernels device pointers: every address of a global
/// taken by a host function becomes the address of its device copy, which
/// the runtime makes on first use and keeps for the compiled module's life
/// (so weights are uploaded once, not in every timed run).
static void redirectGlobalsToDevice(ModuleOp module,
                                    const llvm::StringMap<uint64_t> &globals) {
  SmallVector<LLVM::AddressOfOp> uses;
  for (auto func : module.getOps<LLVM::LLVMFuncOp>())
    func.walk([&](LLVM::AddressOfOp addr) {
      if (globals.contains(addr.getGlobalName()))
        uses.push_back(addr);
    });
  if (uses.empty())
    return;
  MLIRContext *ctx = module.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  auto fnType = LLVM::LLVMFunctionType::get(ptrType, {ptrType, i64});
  auto callee =
      module.lookupSymbol<LLVM::LLVMFuncOp>(kDeviceCopyOfGlobalSymbol);
  if (!callee) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    callee = LLVM::LLVMFuncOp::create(b, module.getLoc(),
                                      kDeviceCopyOfGlobalSymbol, fnType);
  }
  for (LLVM::AddressOfOp addr : uses) {
    OpBuilder b(addr);
    b.setInsertionPointAfter(addr);
    Value bytes = LLVM::ConstantOp::create(
        b, addr.getLoc(), i64,
        b.getI64IntegerAttr(globals.lookup(addr.getGlobalName())));
    auto call = LLVM::CallOp::create(b, addr.getLoc(), callee,
                                     ValueRange{addr.getResult(), bytes});
    addr.getResult().replaceAllUsesExcept(call.getResult(), call);
  }
}

/// Tile sizes that give each block 256 threads: 256 along a single dimension,
/// else 32 along the innermost (coalesced) and 8 along the next; never more
/// than a dimension's static trip count.
static SmallVector<int64_t> getBaselineTileSizes(scf::ParallelOp loop) {
  unsigned rank = loop.getNumLoops();
  SmallVector<int64_t> sizes(rank, 1);
  if (rank == 1) {
    sizes[0] = 256;
  } else {
    sizes[rank - 1] = 32;
    sizes[rank - 2] = 8;
  }
  for (unsigned i = 0; i < rank; ++i) {
    std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[i]);
    std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[i]);
    std::optional<int64_t> step = getConstantIntValue(loop.getStep()[i]);
    if (lb && ub && step && *step > 0) {
      int64_t trips = std::max<int64_t>((*ub - *lb + *step - 1) / *step, 1);
      sizes[i] = std::min(sizes[i], trips);
    }
  }
  return sizes;
}

static void tileHostParallelLoops(func::FuncOp func) {
  if (func.isExternal())
    return;
  SmallVector<scf::ParallelOp> loops;
  for (Operation &op : func.getBody().front())
    if (auto loop = dyn_cast<scf::ParallelOp>(op))
      loops.push_back(loop);
  for (scf::ParallelOp loop : loops) {
    bool nested = false;
    loop.getBody()->walk([&](scf::ParallelOp) { nested = true; });
    // Reductions are not mapped by convert-parallel-loops-to-gpu; nested
    // loops are already a blocks x threads nest.
    if (nested || loop.getNumReductions() != 0)
      continue;
    // Constant tile bounds with a guard inside: the GPU mapping takes no
    // min() bound, and the tile loop stays a loop of its own (threads).
    scf::tileParallelLoop(loop, getBaselineTileSizes(loop),
                          /*noMinMaxBounds=*/true);
  }
}

/// After mapping, host functions may only shuffle values and launch.
static LogicalResult checkHostCodeIsOnlyLaunches(ModuleOp module,
                                                 std::string &error) {
  for (auto func : module.getOps<func::FuncOp>()) {
    WalkResult result = func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::LaunchOp>(op))
        return WalkResult::skip();
      if (isa<scf::ParallelOp>(op) ||
          (!isa<gpu::GPUDialect>(op->getDialect()) &&
           op->getNumRegions() == 0 && touchesMemory(op))) {
        error = llvm::formatv("'{0}' in host function @{1} could not be "
                              "mapped to the GPU",
                              op->getName(), func.getSymName())
                    .str();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

namespace {
/// Collects the diagnostics of a pass pipeline into a string.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          if (diag.getSeverity() != DiagnosticSeverity::Error)
            return success();
          std::string text;
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": " << diag;
          for (const Diagnostic &note : diag.getNotes())
            os << "\n  note: " << note;
          if (!messages.empty())
            messages += "\n";
          messages += text;
          return success();
        }) {}
  std::string take(StringRef fallback) {
    return messages.empty() ? fallback.str() : std::move(messages);
  }

private:
  std::string messages;
  ScopedDiagnosticHandler handler;
};
} // namespace

static void buildNvvmPipeline(OpPassManager &pm, const CudaArch &arch) {
  // The component passes of upstream's gpu-lower-to-nvvm-pipeline, so that
  // the toolkit (libdevice) can be named and the format fixed to PTX.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());

  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = arch.chip;
  targetOptions.features = arch.features;
  targetOptions.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions indexOptions;
  indexOptions.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(indexOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
  gpuPm.addPass(createStripDebugInfoPass());
  ConvertGpuOpsToNVVMOpsOptions nvvmOptions;
  nvvmOptions.indexBitwidth = 64;
  gpuPm.addPass(createConvertGpuOpsToNVVMOps(nvvmOptions));
  gpuPm.addPass(LLVM::createNVVMOptimizeForTargetPass());
  gpuPm.addPass(createCanonicalizerPass());
  gpuPm.addPass(createCSEPass());
  gpuPm.addPass(createReconcileUnrealizedCastsPass());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = "isa";
  binaryOptions.toolkitPath = getCudaToolkitPath();
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

LogicalResult mlir::stark::lowerModuleForCuda(ModuleOp module,
                                              const CudaArch &arch,
                                              std::string &error) {
  MLIRContext *context = module.getContext();
  DialectRegistry registry;
  registerCudaTargetDialects(registry);
  context->appendDialectRegistry(registry);
  initializeNvptxBackend();
  // The rewrites below create ops of these dialects before any pass has
  // loaded them.
  context->loadDialect<arith::ArithDialect, gpu::GPUDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       memref::MemRefDialect, scf::SCFDialect>();
  DiagnosticCollector diagnostics(context);

  if (failed(decomposeSoftmaxOnBuffers(module, error)))
    return failure();
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    interchangeParallelFirst(func);
    moveAllocationsToDevice(func);
    convertCopiesToKernels(func);
  }
  llvm::StringMap<uint64_t> hostGlobals = collectHostGlobals(module);

  // Host linalg to parallel loops; serial nests become one-thread loops.
  {
    PassManager pm(context);
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
    pm.addPass(createCanonicalizerPass());
    if (failed(pm.run(module))) {
      error = diagnostics.take("linalg to parallel loops failed");
      return failure();
    }
  }
  promoteLoopAccumulators(module);
  for (auto func : module.getOps<func::FuncOp>()) {
    wrapSerialHostCode(func);
    tileHostParallelLoops(func);
  }
  {
    // No canonicalization between tiling and mapping: it merges the tile
    // loop into the loop over tiles, and the mapping then makes every
    // point of the tile a block of one thread (with the innermost tile
    // dimension a serial loop).
    PassManager pm(context);
    GpuMapParallelLoopsPassOptions mapOptions;
    mapOptions.mappingPolicyStr = "innermost-first";
    pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass(mapOptions));
    pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
    if (failed(pm.run(module))) {
      error = diagnostics.take("mapping parallel loops to the GPU failed");
      return failure();
    }
  }
  if (failed(checkHostCodeIsOnlyLaunches(module, error)))
    return failure();

  // Every kernel is built for this device, whatever target a candidate named.
  for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
    gpuModule.removeTargetsAttr();

  PassManager pm(context);
  buildNvvmPipeline(pm, arch);
  if (failed(pm.run(module))) {
    error = diagnostics.take("lowering to NVVM and PTX failed");
    return failure();
  }
  redirectGlobalsToDevice(module, hostGlobals);
  return success();
}

SmallVector<std::string> mlir::stark::collectEmbeddedPtx(ModuleOp module) {
  SmallVector<std::string> ptx;
  for (auto binary : module.getOps<gpu::BinaryOp>()) {
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (object && object.getFormat() == gpu::CompilationTarget::Assembly)
        ptx.push_back(object.getObject().getValue().str());
    }
  }
  return ptx;
}

FailureOr<std::string> mlir::stark::compileGpuModuleToPtx(ModuleOp module,
                                                          const CudaArch &arch,
                                                          std::string &error) {
  if (failed(lowerModuleForCuda(module, arch, error)))
    return failure();
  SmallVector<std::string> ptx = collectEmbeddedPtx(module);
  if (ptx.empty()) {
    error = "the module has no GPU code";
    return failure();
  }
  std::string all;
  for (const std::string &text : ptx)
    all += text;
  return all;
}

LogicalResult mlir::stark::checkLoweredCudaCandidate(ModuleOp module,
                                                     std::string &error) {
  const llvm::StringMap<void *> &runtime = getCudaRuntimeSymbols();
  auto provided = [&](StringRef name) {
    return runtime.contains(name) || isHostRuntimeSymbol(name);
  };
  if (failed(checkLoweredModule(module, provided, error)))
    return failure();
  // The NVPTX backend names MLIR's workgroup buffers itself.
  PtxGuardOptions options;
  options.allowNamedShared = true;
  for (const std::string &ptx : collectEmbeddedPtx(module))
    if (std::optional<PtxViolation> v = findPtxViolation(ptx, options)) {
      error = "the compiled candidate breaks a guard: " + v->describe();
      return failure();
    }
  return success();
}
