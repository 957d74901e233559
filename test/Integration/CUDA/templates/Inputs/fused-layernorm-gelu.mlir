// bench/problems/layernorm_gelu.mlir's fused group as stark-outline writes it, rows of
// 160 instead of 1024 and 6 rows instead of 4096.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 4, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "6x160xf32,160xf32,160xf32->6x160xf32", signature = "00000000000000000000000000000018">} {
  func.func @kernel(%arg0: memref<6x160xf32>, %arg1: memref<160xf32>, %arg2: memref<160xf32>, %arg3: memref<6x160xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<6xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<6xf32>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<6x160xf32>) outs(%alloc : memref<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_1 = memref.alloc() : memref<6xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_1 : memref<6xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0, %alloc : memref<6x160xf32>, memref<6xf32>) outs(%alloc_1 : memref<6xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %cst_4 = arith.constant 1.600000e+02 : f32
      %0 = arith.divf %in_3, %cst_4 : f32
      %1 = arith.subf %in, %0 : f32
      %2 = arith.mulf %1, %1 : f32
      %3 = arith.addf %2, %out : f32
      linalg.yield %3 : f32
    }
    %alloc_2 = memref.alloc() : memref<6x160xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map1, #map2, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %alloc, %alloc_1, %arg1, %arg2 : memref<6x160xf32>, memref<6xf32>, memref<6xf32>, memref<160xf32>, memref<160xf32>) outs(%alloc_2 : memref<6x160xf32>) {
    ^bb0(%in: f32, %in_3: f32, %in_4: f32, %in_5: f32, %in_6: f32, %out: f32):
      %cst_7 = arith.constant 1.600000e+02 : f32
      %cst_8 = arith.constant 9.99999974E-6 : f32
      %0 = arith.divf %in_3, %cst_7 : f32
      %1 = arith.divf %in_4, %cst_7 : f32
      %2 = arith.addf %1, %cst_8 : f32
      %3 = math.rsqrt %2 : f32
      %4 = arith.subf %in, %0 : f32
      %5 = arith.mulf %4, %3 : f32
      %6 = arith.mulf %5, %in_5 : f32
      %7 = arith.addf %6, %in_6 : f32
      linalg.yield %7 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc_2 : memref<6x160xf32>) outs(%arg3 : memref<6x160xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_3 = arith.constant 5.000000e-01 : f32
      %cst_4 = arith.constant 1.000000e+00 : f32
      %cst_5 = arith.constant 0.707106769 : f32
      %0 = arith.mulf %in, %cst_5 : f32
      %1 = math.erf %0 : f32
      %2 = arith.addf %cst_4, %1 : f32
      %3 = arith.mulf %in, %cst_3 : f32
      %4 = arith.mulf %3, %2 : f32
      linalg.yield %4 : f32
    }
    memref.dealloc %alloc : memref<6xf32>
    memref.dealloc %alloc_1 : memref<6xf32>
    memref.dealloc %alloc_2 : memref<6x160xf32>
    return
  }
}
