//===- GpuBinary.cpp - CUDA C++ as gpu.binary and its launches ------------===//

#include "stark/Target/GpuBinary.h"
#include "stark/Dialect/StarkAttrs.h"
#include "stark/Dialect/StarkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

using namespace mlir;
using namespace mlir::stark;

CudaArch mlir::stark::getCudaArchForChip(StringRef chip) {
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

/// The tensor map `map` of the host function's argument, as upstream's
/// `nvgpu.tma.create.descriptor` makes it: the argument seen as the
/// row-major `shape`, boxes of `box`, the 128-byte swizzle, zeros past the
/// edges. It lowers (convert-nvgpu-to-nvvm) to a call of the runtime's
/// mgpuTensorMapEncodeTiledMemref, which returns the map's device address;
/// the launch takes that address as the pointer it is (gpu-to-llvm has no
/// conversion of the descriptor type for a launch's operands).
static Value emitTensorMap(OpBuilder &b, Location loc, func::FuncOp host,
                           TensorMapAttr map,
                           function_ref<Value(int64_t)> index) {
  MLIRContext *context = b.getContext();
  Value arg = host.getArgument(unsigned(map.getArg()));
  Type element = cast<MemRefType>(arg.getType()).getElementType();
  ArrayRef<int64_t> shape = map.getShape().asArrayRef();
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  auto viewType = MemRefType::get(shape, element,
                                  StridedLayoutAttr::get(context, 0, strides));
  Value view = memref::ReinterpretCastOp::create(b, loc, viewType, arg, 0,
                                                 shape, strides);
  Value unranked =
      memref::CastOp::create(b, loc, UnrankedMemRefType::get(element, 0), view);
  SmallVector<Value> box;
  for (int64_t extent : map.getBox().asArrayRef())
    box.push_back(index(extent));
  auto boxType = MemRefType::get(
      map.getBox().asArrayRef(), element, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
  auto descriptorType = nvgpu::TensorMapDescriptorType::get(
      context, boxType, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  Value descriptor = nvgpu::TmaCreateDescriptorOp::create(
      b, loc, descriptorType, unranked, box);
  return UnrealizedConversionCastOp::create(
             b, loc, LLVM::LLVMPointerType::get(context), descriptor)
      .getResult(0);
}

func::FuncOp mlir::stark::emitCudaLaunchHost(
    ModuleOp module, StringRef name, FunctionType type, StringRef binaryName,
    ArrayRef<CudaLaunch> launches,
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
    SmallVector<Value> operands(pointers);
    for (TensorMapAttr map : launch.tensorMaps)
      operands.push_back(emitTensorMap(b, loc, host, map, index));
    token = gpu::LaunchFuncOp::create(b, loc, kernel, grid, block, shared,
                                      operands, tokenType, ValueRange{token})
                .getAsyncToken();
  }
  gpu::WaitOp::create(b, loc, Type(), ValueRange{token});
  func::ReturnOp::create(b, loc);
  return host;
}
CudaGpuBinary mlir::stark::emitCudaSourceAsGpuBinary(ModuleOp module,
                                                     func::FuncOp entry,
                                                     StringRef name,
                                                     StringRef chip,
                                                     bool embedPtx) {
  CudaGpuBinary result;
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

  FailureOr<NvrtcOutput> built =
      compileCudaSourceCandidate(*source, chip, result.error);
  if (failed(built))
    return result;
  // A model-written winner passes the guards it passed when it was judged;
  // the problem around it says which arguments are inputs.
  unsigned numInputs = 0;
  for (Operation *p = entry->getParentOp(); p; p = p->getParentOp())
    if (auto info = p->getAttrOfType<ProblemAttr>(kProblemAttrName)) {
      int64_t inputs = int64_t(entry.getNumArguments()) - info.getNumOutputs();
      numInputs = unsigned(std::max<int64_t>(inputs, 0));
      break;
    }
  if (failed(checkModelWrittenPtx(*source, *built, numInputs, result.error))) {
    result.malformed = true;
    return result;
  }

  // The cubin is the code that was verified and timed (the cuda target
  // loads NVRTC's cubin); PTX is JIT-compiled by the driver when loaded.
  bool usePtx = embedPtx || built->cubin.empty();
  const std::string &image = usePtx ? built->ptx : built->cubin;
  MLIRContext *context = module.getContext();
  CudaArch arch = getCudaArchForChip(chip);
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
  result.host =
      emitCudaLaunchHost(module, name, entry.getFunctionType(), binaryName,
                         source->launches, built->loweredNames);
  return result;
}
