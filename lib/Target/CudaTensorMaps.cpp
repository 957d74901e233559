//===- CudaTensorMaps.cpp - Tensor maps of a CUDA launch's arguments ------===//

#include "stark/Target/CudaTensorMaps.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stark;

static FailureOr<std::pair<CUtensorMapDataType, unsigned>>
getDataType(Type element) {
  if (element.isBF16())
    return std::make_pair(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2u);
  if (element.isF16())
    return std::make_pair(CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2u);
  if (element.isF32())
    return std::make_pair(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4u);
  return failure();
}

FailureOr<TensorMapSpec> mlir::stark::getTensorMapSpec(TensorMapAttr map,
                                                       TypeRange argumentTypes,
                                                       std::string &error) {
  auto fail = [&](const llvm::formatv_object_base &message) {
    error = llvm::formatv("tensor map of argument #{0}: {1}", map.getArg(),
                          message.str())
                .str();
    return failure();
  };
  if (map.getArg() >= int64_t(argumentTypes.size()))
    return fail(
        llvm::formatv("the entry has {0} arguments", argumentTypes.size()));
  auto memref = dyn_cast<MemRefType>(argumentTypes[map.getArg()]);
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity())
    return fail(llvm::formatv("needs a statically shaped memref with the "
                              "identity layout, got {0}",
                              argumentTypes[map.getArg()]));
  FailureOr<std::pair<CUtensorMapDataType, unsigned>> type =
      getDataType(memref.getElementType());
  if (failed(type))
    return fail(llvm::formatv("elements of {0} (bf16, f16 or f32 only)",
                              memref.getElementType()));
  TensorMapSpec spec;
  spec.arg = unsigned(map.getArg());
  std::tie(spec.dataType, spec.elementBytes) = *type;
  spec.shape.assign(map.getShape().asArrayRef().begin(),
                    map.getShape().asArrayRef().end());
  spec.box.assign(map.getBox().asArrayRef().begin(),
                  map.getBox().asArrayRef().end());
  int64_t elements = 1;
  for (int64_t extent : spec.shape)
    elements *= extent;
  if (elements != memref.getNumElements())
    return fail(llvm::formatv("'shape' holds {0} elements, the argument {1}",
                              elements, memref.getNumElements()));
  // The copy engine's rules: global strides in whole 16 bytes; with the
  // 128-byte swizzle a box row is whole 16 bytes, at most 128.
  int64_t rowBytes = spec.shape.back() * spec.elementBytes;
  int64_t boxRowBytes = spec.box.back() * spec.elementBytes;
  if (spec.shape.size() > 1 && rowBytes % 16 != 0)
    return fail(
        llvm::formatv("a row of {0} bytes is not whole 16 bytes", rowBytes));
  if (boxRowBytes % 16 != 0 || boxRowBytes > 128)
    return fail(llvm::formatv("a box row of {0} bytes (the 128-byte swizzle "
                              "takes 16 to 128 in steps of 16)",
                              boxRowBytes));
  return spec;
}

LogicalResult mlir::stark::encodeTensorMap(const CudaDriverApi &api,
                                           const TensorMapSpec &spec,
                                           CUdeviceptr base, CUtensorMap &map,
                                           std::string &error) {
  const unsigned rank = unsigned(spec.shape.size());
  if (base % 16 != 0) {
    error = llvm::formatv("tensor map of argument #{0}: its memory at {1:x} "
                          "is not 16-byte aligned",
                          spec.arg, base)
                .str();
    return failure();
  }
  // The driver counts dimensions innermost first.
  cuuint64_t dims[5], strides[5];
  cuuint32_t box[5], elementStrides[5];
  uint64_t stride = spec.elementBytes;
  for (unsigned i = 0; i < rank; ++i) {
    dims[i] = cuuint64_t(spec.shape[rank - 1 - i]);
    box[i] = cuuint32_t(spec.box[rank - 1 - i]);
    elementStrides[i] = 1;
    stride *= dims[i];
    if (i + 1 < rank)
      strides[i] = stride;
  }
  CUresult result = api.cuTensorMapEncodeTiledFn(
      &map, spec.dataType, rank, reinterpret_cast<void *>(base), dims, strides,
      box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, spec.swizzle,
      spec.l2Promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS) {
    error = api.describe(
        result,
        llvm::formatv("cuTensorMapEncodeTiled (argument #{0})", spec.arg)
            .str());
    return failure();
  }
  return success();
}
