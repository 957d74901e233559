//===- CudaTensorMaps.h - Tensor maps of a launch's arguments -*- C++ -*-===//
//
// A CUDA C++ candidate's launch may ask for tensor maps (#stark.tensor_map):
// descriptors of the bulk tensor copy engine (TMA) over its arguments. They
// are encoded on the host with cuTensorMapEncodeTiled, copied to device
// memory before every launch, and passed by address after the arguments'
// pointers. The same description serves the evaluator's launches and the
// runtime function a substituted winner's host code calls.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_CUDATENSORMAPS_H
#define STARK_TARGET_CUDATENSORMAPS_H

#include "stark/Dialect/StarkAttrs.h"
#include "stark/Target/CudaDriver.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::stark {

/// What encoding one tensor map takes: the memory seen as a row-major
/// tensor of `shape`, copied in boxes of `box` (both outermost first).
struct TensorMapSpec {
  unsigned arg = 0;
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  unsigned elementBytes = 4;
  SmallVector<int64_t> shape, box;
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_128B;
  CUtensorMapL2promotion l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
};

/// Checks `map` against the entry's argument types (a statically shaped
/// memref with the identity layout, of bf16, f16 or f32, whose element
/// count `shape` keeps; rows of whole 16-byte units; a box row of at most
/// the 128-byte swizzle) and describes it.
FailureOr<TensorMapSpec> getTensorMapSpec(TensorMapAttr map,
                                          TypeRange argumentTypes,
                                          std::string &error);

/// cuTensorMapEncodeTiled of the memory at `base` seen as `shape` with
/// `strides` (elements) read in boxes of `box`, all outermost first (the
/// innermost stride is 1), unit element strides: what both the evaluator
/// and the runtime's mgpuTensorMapEncodeTiledMemref encode with.
CUresult
encodeTiledTensorMap(const CudaDriverApi &api, CUtensorMapDataType dataType,
                     unsigned elementBytes, void *base, ArrayRef<int64_t> shape,
                     ArrayRef<int64_t> strides, ArrayRef<int64_t> box,
                     CUtensorMapInterleave interleave,
                     CUtensorMapSwizzle swizzle,
                     CUtensorMapL2promotion l2Promotion,
                     CUtensorMapFloatOOBfill oobFill, CUtensorMap &map);

/// Encodes `spec` over device memory at `base` (row-major, zeros past the
/// edges).
LogicalResult encodeTensorMap(const CudaDriverApi &api,
                              const TensorMapSpec &spec, CUdeviceptr base,
                              CUtensorMap &map, std::string &error);

} // namespace mlir::stark

#endif // STARK_TARGET_CUDATENSORMAPS_H
