// bench/problems/conv2d_group_norm.mlir's group norm at its check shapes, as
// stark-outline writes it: rows (n, group) of 2 x 3 x 4, gamma and beta per
// (group, channel).
#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>
module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic)", shapes = "1x2x2x3x4xf32,2x2xf32,2x2xf32->1x2x2x3x4xf32", signature = "e5cccb1d17218789f7ecc0d36eebab8d">} {
  func.func @kernel(%arg0: memref<1x2x2x3x4xf32>, %arg1: memref<2x2xf32>, %arg2: memref<2x2xf32>, %arg3: memref<1x2x2x3x4xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<1x2xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<1x2xf32>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg0 : memref<1x2x2x3x4xf32>) outs(%alloc : memref<1x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_1 = memref.alloc() : memref<1x2xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_1 : memref<1x2xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%arg0, %alloc : memref<1x2x2x3x4xf32>, memref<1x2xf32>) outs(%alloc_1 : memref<1x2xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %cst_3 = arith.constant 2.400000e+01 : f32
      %0 = arith.divf %in_2, %cst_3 : f32
      %1 = arith.subf %in, %0 : f32
      %2 = arith.mulf %1, %1 : f32
      %3 = arith.addf %2, %out : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map1, #map2, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %alloc, %alloc_1, %arg1, %arg2 : memref<1x2x2x3x4xf32>, memref<1x2xf32>, memref<1x2xf32>, memref<2x2xf32>, memref<2x2xf32>) outs(%arg3 : memref<1x2x2x3x4xf32>) {
    ^bb0(%in: f32, %in_2: f32, %in_3: f32, %in_4: f32, %in_5: f32, %out: f32):
      %cst_6 = arith.constant 2.400000e+01 : f32
      %cst_7 = arith.constant 9.99999974E-6 : f32
      %0 = arith.divf %in_2, %cst_6 : f32
      %1 = arith.divf %in_3, %cst_6 : f32
      %2 = arith.addf %1, %cst_7 : f32
      %3 = math.rsqrt %2 : f32
      %4 = arith.subf %in, %0 : f32
      %5 = arith.mulf %4, %3 : f32
      %6 = arith.mulf %5, %in_4 : f32
      %7 = arith.addf %6, %in_5 : f32
      linalg.yield %7 : f32
    }
    memref.dealloc %alloc : memref<1x2xf32>
    memref.dealloc %alloc_1 : memref<1x2xf32>
    return
  }
}
