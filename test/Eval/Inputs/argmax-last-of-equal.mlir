// Wrong: the position of the last of equal greatest values, not the first
// (oge instead of ogt).
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
module {
  func.func @kernel(%arg0: memref<4x64x33xf32>, %arg1: memref<4x33xi64>) {
    %cst = arith.constant 0xFF800000 : f32
    %c0_i64 = arith.constant 0 : i64
    %alloc = memref.alloc() : memref<4x33xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<4x33xf32>)
    linalg.fill ins(%c0_i64 : i64) outs(%arg1 : memref<4x33xi64>)
    linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0 : memref<4x64x33xf32>) outs(%alloc, %arg1 : memref<4x33xf32>, memref<4x33xi64>) {
    ^bb0(%in: f32, %out: f32, %out_0: i64):
      %0 = linalg.index 1 : index
      %1 = arith.index_cast %0 : index to i64
      %2 = arith.cmpf oge, %in, %out : f32
      %3 = arith.select %2, %in, %out : f32
      %4 = arith.select %2, %1, %out_0 : i64
      linalg.yield %3, %4 : f32, i64
    }
    memref.dealloc %alloc : memref<4x33xf32>
    return
  }
}

