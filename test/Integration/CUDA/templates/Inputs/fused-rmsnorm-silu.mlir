// bench/problems/rmsnorm_silu.mlir's fused group as stark-outline writes it, rows of
// 160 instead of 1024 and 6 rows instead of 4096.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic)", shapes = "6x160xf32,160xf32->6x160xf32", signature = "00000000000000000000000000000010">} {
  func.func @kernel(%arg0: memref<6x160xf32>, %arg1: memref<160xf32>, %arg2: memref<6x160xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<6xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<6xf32>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<6x160xf32>) outs(%alloc : memref<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %in : f32
      %1 = arith.addf %0, %out : f32
      linalg.yield %1 : f32
    }
    %alloc_0 = memref.alloc() : memref<6x160xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %alloc, %arg1 : memref<6x160xf32>, memref<6xf32>, memref<160xf32>) outs(%alloc_0 : memref<6x160xf32>) {
    ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
      %cst_3 = arith.constant 1.600000e+02 : f32
      %cst_4 = arith.constant 9.99999997E-7 : f32
      %0 = arith.divf %in_1, %cst_3 : f32
      %1 = arith.addf %0, %cst_4 : f32
      %2 = math.rsqrt %1 : f32
      %3 = arith.mulf %in, %2 : f32
      %4 = arith.mulf %3, %in_2 : f32
      linalg.yield %4 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_0 : memref<6x160xf32>) outs(%arg2 : memref<6x160xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_1 = arith.constant 1.000000e+00 : f32
      %0 = arith.negf %in : f32
      %1 = math.exp %0 : f32
      %2 = arith.addf %cst_1, %1 : f32
      %3 = arith.divf %cst_1, %2 : f32
      %4 = arith.mulf %in, %3 : f32
      linalg.yield %4 : f32
    }
    memref.dealloc %alloc : memref<6xf32>
    memref.dealloc %alloc_0 : memref<6x160xf32>
    return
  }
}
