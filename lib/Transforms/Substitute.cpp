//===- Substitute.cpp - Replace ops by their problems' verified winners ---===//

#include "stark/Problem/FusionGroup.h"
#include "stark/Problem/KernelProblem.h"
#include "stark/Transforms/Passes.h"
#ifdef STARK_ENABLE_CUDA
#include "stark/Target/CudaCompile.h"
#endif

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

namespace mlir::stark {
#define GEN_PASS_DEF_STARKSUBSTITUTEPASS
#include "stark/Transforms/Passes.h.inc"
} // namespace mlir::stark

using namespace mlir;
using namespace mlir::stark;

namespace {

/// Copies the winner's entry into `module` as a private function (once per
/// signature) and returns it.
func::FuncOp importWinner(ModuleOp module, ModuleOp winner,
                          const KernelProblemInfo &info) {
  std::string name = "stark_kernel_" + info.signature.substr(0, 16);
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  auto entry = winner.lookupSymbol<func::FuncOp>(info.entry);
  if (!entry)
    return {};
  // Helpers the entry calls (and globals it uses) come along, renamed
  // with the same prefix so they cannot clash with the program's symbols.
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  func::FuncOp copy;
  for (Operation &op : winner.getBody()->getOperations()) {
    Operation *clone = b.clone(op);
    if (auto f = dyn_cast<func::FuncOp>(clone); f && f.getName() == info.entry)
      copy = f;
  }
  SymbolTable table(module);
  (void)table.rename(copy, name);
  copy.setPrivate();
  return copy;
}

/// What became of a CUDA C++ winner.
struct CudaImport {
  /// The host function launching the kernels; null when not imported.
  func::FuncOp host;
  /// Why not: a malformed winner is an error, a compile that did not happen
  /// or failed (no NVRTC, another toolkit, another chip) leaves the op.
  std::string error;
  bool malformed = false;
};

#ifdef STARK_ENABLE_CUDA
/// The NVVM target features that go with `chip` (sm_90a -> +ptx80), as the
/// cuda target pairs them.
CudaArch getArchForChip(StringRef chip) {
  CudaArch arch;
  arch.chip = chip.str();
  arch.features = "";
  unsigned cc = 0;
  StringRef digits = chip;
  if (digits.consume_front("sm_") &&
      !digits.take_while(llvm::isDigit).getAsInteger(10, cc)) {
    CudaArch known = CudaArch::forComputeCapability(cc / 10, cc % 10);
    if (known.chip == chip)
      arch.features = known.features;
  }
  return arch;
}

/// Emits the launches of a compiled CUDA C++ winner: a private host function
/// `name` with the winner's memref signature that passes each memref's
/// aligned pointer (the kernels take `T *`) to every launch, in order, on
/// one stream, and waits for them.
func::FuncOp emitCudaHost(ModuleOp module, StringRef name, FunctionType type,
                          StringRef binaryName, ArrayRef<CudaLaunch> launches,
                          const llvm::StringMap<std::string> &loweredNames) {
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto host = func::FuncOp::create(b, loc, name, type);
  host.setPrivate();
  b.setInsertionPointToStart(host.addEntryBlock());

  auto ptrType = LLVM::LLVMPointerType::get(context);
  SmallVector<Value> pointers;
  for (BlockArgument arg : host.getArguments()) {
    Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, arg);
    Value integer = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
    pointers.push_back(LLVM::IntToPtrOp::create(b, loc, ptrType, integer));
  }
  llvm::SmallDenseMap<int64_t, Value> constants, sharedConstants;
  auto index = [&](int64_t v) -> Value {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(b, loc, v);
    return c;
  };
  auto tokenType = gpu::AsyncTokenType::get(context);
  Value token =
      gpu::WaitOp::create(b, loc, tokenType, ValueRange()).getAsyncToken();
  for (const CudaLaunch &launch : launches) {
    gpu::KernelDim3 grid{index(launch.grid[0]), index(launch.grid[1]),
                         index(launch.grid[2])};
    gpu::KernelDim3 block{index(launch.block[0]), index(launch.block[1]),
                          index(launch.block[2])};
    Value shared;
    if (launch.sharedBytes != 0) {
      Value &c = sharedConstants[launch.sharedBytes];
      if (!c)
        c = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                         launch.sharedBytes);
      shared = c;
    }
    auto kernel = SymbolRefAttr::get(
        context, binaryName,
        {FlatSymbolRefAttr::get(context, loweredNames.lookup(launch.kernel))});
    token = gpu::LaunchFuncOp::create(b, loc, kernel, grid, block, shared,
                                      pointers, tokenType, ValueRange{token})
                .getAsyncToken();
  }
  gpu::WaitOp::create(b, loc, Type(), ValueRange{token});
  func::ReturnOp::create(b, loc);
  return host;
}
#endif

/// Compiles the CUDA C++ winner `entry` with NVRTC and emits it into
/// `module` as `gpu.binary @<name>_bin` plus the host function `@<name>`
/// (once per signature). Nothing is added unless the compile succeeds.
CudaImport importCudaWinner(ModuleOp module, func::FuncOp entry, StringRef name,
                            StringRef chip, bool embedPtx) {
  CudaImport result;
  if (auto existing = module.lookupSymbol<func::FuncOp>(name)) {
    result.host = existing;
    return result;
  }
#ifdef STARK_ENABLE_CUDA
  FailureOr<CudaSourceCandidate> source = parseCudaSource(entry, result.error);
  if (failed(source)) {
    result.malformed = true;
    return result;
  }
  for (Type type : entry.getArgumentTypes()) {
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !memref.getLayout().isIdentity()) {
      result.error = llvm::formatv("its arguments must be memrefs with the "
                                   "identity layout, got {0}",
                                   type)
                         .str();
      result.malformed = true;
      return result;
    }
  }
  if (entry.getNumResults() != 0) {
    result.error = "its function must not return values";
    result.malformed = true;
    return result;
  }
  for (const CudaLaunch &launch : source->launches) {
    if (launch.sharedBytes > std::numeric_limits<int32_t>::max()) {
      result.error = llvm::formatv("launch of {0}: 'shared_bytes' does not "
                                   "fit in 32 bits",
                                   launch.kernel)
                         .str();
      result.malformed = true;
      return result;
    }
  }

  SmallVector<std::string> names;
  for (const CudaLaunch &launch : source->launches)
    if (!llvm::is_contained(names, launch.kernel))
      names.push_back(launch.kernel);
  FailureOr<NvrtcOutput> built = compileCudaSourceWithNvrtc(
      source->source, names, chip, source->options, result.error);
  if (failed(built))
    return result;

  // The cubin is the code that was verified and timed (the cuda target
  // loads NVRTC's cubin); PTX is JIT-compiled by the driver when loaded.
  bool usePtx = embedPtx || built->cubin.empty();
  const std::string &image = usePtx ? built->ptx : built->cubin;
  MLIRContext *context = module.getContext();
  CudaArch arch = getArchForChip(chip);
  auto target = NVVM::NVVMTargetAttr::get(
      context, /*optLevel=*/3, "nvptx64-nvidia-cuda", arch.chip, arch.features);
  auto object = gpu::ObjectAttr::get(context, target,
                                     usePtx ? gpu::CompilationTarget::Assembly
                                            : gpu::CompilationTarget::Binary,
                                     StringAttr::get(context, image),
                                     /*properties=*/nullptr,
                                     /*kernels=*/nullptr);
  std::string binaryName = (name + "_bin").str();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  gpu::BinaryOp::create(b, module.getLoc(), binaryName,
                        /*offloadingHandler=*/nullptr,
                        ArrayRef<Attribute>{object});
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(context));
  result.host = emitCudaHost(module, name, entry.getFunctionType(), binaryName,
                             source->launches, built->loweredNames);
#else
  (void)entry;
  (void)embedPtx;
  result.error = "stark was built without the CUDA target "
                 "(STARK_ENABLE_CUDA=OFF), which compiles CUDA C++";
#endif
  return result;
}

/// Replaces `op` by a call of `kernel`, bridging tensors to buffers.
LogicalResult replaceWithCall(DestinationStyleOpInterface op,
                              func::FuncOp kernel, DictionaryAttr provenance) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
  OpBuilder b(op);
  Location loc = op->getLoc();
  SmallVector<Value> args;
  for (OpOperand *in : op.getDpsInputOperands()) {
    Value v = in->get();
    if (!isa<ShapedType>(v.getType()))
      continue; // scalars were cloned into the problem as constants
    if (auto t = dyn_cast<RankedTensorType>(v.getType()))
      v = bufferization::ToBufferOp::create(
          b, loc, MemRefType::get(t.getShape(), t.getElementType()), v,
          /*readOnly=*/true);
    args.push_back(v);
  }
  SmallVector<Value> outBuffers;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Value v = init.get();
    if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
      auto type = MemRefType::get(t.getShape(), t.getElementType());
      Value buffer = memref::AllocOp::create(b, loc, type);
      // Structured ops may accumulate into their init; softmax does not.
      if (linalgOp && linalgOp.payloadUsesValueFromOperand(&init)) {
        Value initBuffer = bufferization::ToBufferOp::create(b, loc, type, v,
                                                             /*readOnly=*/true);
        memref::CopyOp::create(b, loc, initBuffer, buffer);
      }
      outBuffers.push_back(buffer);
      args.push_back(buffer);
    } else {
      args.push_back(v);
    }
  }
  if (TypeRange(ValueRange(args)) != kernel.getFunctionType().getInputs())
    return op->emitError("stark-substitute: the winner's arguments do not "
                         "match the op's operands");
  auto call = func::CallOp::create(b, loc, kernel, args);
  call->setAttr("stark.winner", provenance);
  SmallVector<Value> results;
  for (auto [result, buffer] : llvm::zip(op->getResults(), outBuffers))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, result.getType(), buffer, /*restrict=*/true,
        /*writable=*/true));
  op->replaceAllUsesWith(results);
  op->erase();
  return success();
}

struct StarkSubstitutePass
    : public stark::impl::StarkSubstitutePassBase<StarkSubstitutePass> {
  using StarkSubstitutePassBase::StarkSubstitutePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (cudaFormat != "cubin" && cudaFormat != "ptx") {
      module.emitError() << "stark-substitute: cuda-format must be cubin or "
                            "ptx, got '"
                         << cudaFormat << "'";
      return signalPassFailure();
    }
    SmallVector<DestinationStyleOpInterface> tagged;
    module->walk([&](DestinationStyleOpInterface op) {
      if (op->hasAttrOfType<FlatSymbolRefAttr>(kProblemAttrName))
        tagged.push_back(op);
    });
    // Ops of fused chains already replaced (erased: compared, never used).
    llvm::SmallPtrSet<Operation *, 16> replaced;
    for (DestinationStyleOpInterface op : tagged) {
      if (replaced.contains(op.getOperation()))
        continue;
      auto ref = op->getAttrOfType<FlatSymbolRefAttr>(kProblemAttrName);
      auto problem = module.lookupSymbol<ModuleOp>(ref.getAttr());
      if (!problem)
        continue;
      auto winnerAttr = problem->getAttrOfType<DictionaryAttr>("stark.winner");
      auto winner = problem.lookupSymbol<ModuleOp>("winner");
      if (!winnerAttr || !winner) {
        op->removeAttr(kProblemAttrName);
        continue;
      }
      std::string error;
      FailureOr<KernelProblemInfo> info = getKernelProblemInfo(problem, error);
      if (failed(info)) {
        op->emitError() << "stark-substitute: " << error;
        return signalPassFailure();
      }
      auto entry = winner.lookupSymbol<func::FuncOp>(info->entry);
      if (!entry) {
        op->emitError() << "stark-substitute: the winner of " << ref.getValue()
                        << " has no @" << info->entry;
        return signalPassFailure();
      }
      std::string name = "stark_kernel_" + info->signature.substr(0, 16);
      func::FuncOp kernel;
      std::string cudaNote;
      if (entry->hasAttr("stark.cuda")) {
        // CUDA C++ lives in an attribute of a body-less function; it becomes
        // gpu.binary + gpu.launch_func, which the standard pipeline lowers.
        std::string chip = cudaChip;
        if (chip.empty())
          if (auto recorded = winnerAttr.getAs<StringAttr>("chip"))
            chip = recorded.getValue().str();
        if (chip.empty())
          chip = "sm_90a";
        CudaImport cuda =
            importCudaWinner(module, entry, name, chip, cudaFormat == "ptx");
        if (cuda.malformed) {
          op->emitError() << "stark-substitute: the CUDA C++ winner of @"
                          << ref.getValue() << " is malformed: " << cuda.error;
          return signalPassFailure();
        }
        if (!cuda.host) {
          op->emitRemark() << "stark-substitute: left as is: the CUDA C++ "
                              "winner of @"
                           << ref.getValue() << " could not be compiled for "
                           << chip << ": " << cuda.error;
          op->removeAttr(kProblemAttrName);
          continue;
        }
        kernel = cuda.host;
        cudaNote = llvm::formatv(
                       ": CUDA C++ compiled for {0} into gpu.binary @{1}_bin",
                       chip, name)
                       .str();
      } else {
        kernel = importWinner(module, winner, *info);
      }
      Builder b(&getContext());
      DictionaryAttr provenance = b.getDictionaryAttr({
          b.getNamedAttr("candidate", winnerAttr.get("candidate")),
          b.getNamedAttr("signature", b.getStringAttr(info->signature)),
          b.getNamedAttr("speedup", winnerAttr.get("speedup")),
          b.getNamedAttr("strategy", winnerAttr.get("strategy")),
      });
      double speedup = 0;
      if (auto s = winnerAttr.getAs<FloatAttr>("speedup"))
        speedup = s.getValueAsDouble();
      // A fused problem replaces its whole chain (FusionGroup.h).
      FailureOr<FusionGroup> group = failure();
      if (info->fusedOps > 1) {
        group = findOutlinedFusionGroup(op, info->fusedOps, error);
        if (failed(group)) {
          op->emitRemark() << "stark-substitute: left as is: " << error;
          op->removeAttr(kProblemAttrName);
          continue;
        }
        replaced.insert(group->ops.begin(), group->ops.end());
      }
      InFlightDiagnostic remark = op->emitRemark();
      remark << "stark-substitute: replaced by @" << kernel.getName() << " ("
             << winnerAttr.getAs<StringAttr>("strategy").getValue() << ", "
             << llvm::formatv("{0:f2}", speedup).str() << "x, verified)"
             << cudaNote;
      remark.report();
      if (failed(succeeded(group)
                     ? replaceFusionGroupWithCall(*group, kernel, provenance)
                     : replaceWithCall(op, kernel, provenance)))
        return signalPassFailure();
      ++numSubstituted;
    }
    if (!keepProblems)
      for (auto nested : llvm::make_early_inc_range(module.getOps<ModuleOp>()))
        if (nested->hasAttr(kProblemAttrName))
          nested->erase();
  }
};

} // namespace
