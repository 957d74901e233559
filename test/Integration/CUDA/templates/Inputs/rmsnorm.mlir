#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)", shapes = "2x40x768xf32,768xf32->2x40x768xf32", signature = "7c963f44fd3a14c769074f6913b79159">} {
  func.func @kernel(%arg0: memref<2x40x768xf32>, %arg1: memref<768xf32>, %arg2: memref<2x40x768xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 7.680000e+02 : f32
    %cst_1 = arith.constant 9.99999997E-7 : f32
    %alloc = memref.alloc() : memref<2x40xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x40xf32>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : memref<2x40x768xf32>) outs(%alloc : memref<2x40xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %in : f32
      %1 = arith.addf %0, %out : f32
      linalg.yield %1 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %alloc, %arg1 : memref<2x40x768xf32>, memref<2x40xf32>, memref<768xf32>) outs(%arg2 : memref<2x40x768xf32>) {
    ^bb0(%in: f32, %in_2: f32, %in_3: f32, %out: f32):
      %0 = arith.divf %in_2, %cst_0 : f32
      %1 = arith.addf %cst_1, %0 : f32
      %2 = math.sqrt %1 : f32
      %3 = arith.divf %in, %2 : f32
      %4 = arith.mulf %in_3, %3 : f32
      linalg.yield %4 : f32
    }
    memref.dealloc %alloc : memref<2x40xf32>
    return
  }
}

