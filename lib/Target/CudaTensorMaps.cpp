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

CUresult mlir::stark::encodeTiledTensorMap(
    const CudaDriverApi &api, CUtensorMapDataType dataType,
    unsigned elementBytes, void *base, ArrayRef<int64_t> shape,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> box,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill,
    CUtensorMap &map) {
  const size_t rank = shape.size();
  if (rank < 1 || rank > 5 || strides.size() != rank || box.size() != rank)
    return CUDA_ERROR_INVALID_VALUE;
  // The driver counts dimensions innermost first, in bytes between rows.
  cuuint64_t dims[5], globalStrides[5];
  cuuint32_t boxDims[5], elementStrides[5];
  for (size_t i = 0; i < rank; ++i) {
    dims[i] = cuuint64_t(shape[rank - 1 - i]);
    boxDims[i] = cuuint32_t(box[rank - 1 - i]);
    elementStrides[i] = 1;
    if (i + 1 < rank)
      globalStrides[i] = cuuint64_t(strides[rank - 2 - i]) * elementBytes;
  }
  return api.cuTensorMapEncodeTiledFn(
      &map, dataType, cuuint32_t(rank), base, dims, globalStrides, boxDims,
      elementStrides, interleave, swizzle, l2Promotion, oobFill);
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
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = int64_t(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * spec.shape[d + 1];
  CUresult result = encodeTiledTensorMap(
      api, spec.dataType, spec.elementBytes, reinterpret_cast<void *>(base),
      spec.shape, strides, spec.box, CU_TENSOR_MAP_INTERLEAVE_NONE,
      spec.swizzle, spec.l2Promotion, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE, map);
  if (result != CUDA_SUCCESS) {
    error = api.describe(
        result,
        llvm::formatv("cuTensorMapEncodeTiled (argument #{0})", spec.arg)
            .str());
    return failure();
  }
  return success();
}
