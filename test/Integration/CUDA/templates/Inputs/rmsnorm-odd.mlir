#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)", shapes = "37x999xf32->37x999xf32", signature = "e27d32dd1d3b614d889d5e43539f2d61">} {
  func.func @kernel(%arg0: memref<37x999xf32>, %arg1: memref<37x999xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.990000e+02 : f32
    %cst_1 = arith.constant 9.99999997E-7 : f32
    %alloc = memref.alloc() : memref<37xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<37xf32>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<37x999xf32>) outs(%alloc : memref<37xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %in : f32
      %1 = arith.addf %0, %out : f32
      linalg.yield %1 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %alloc : memref<37x999xf32>, memref<37xf32>) outs(%arg1 : memref<37x999xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %0 = arith.divf %in_2, %cst_0 : f32
      %1 = arith.addf %cst_1, %0 : f32
      %2 = math.sqrt %1 : f32
      %3 = arith.divf %in, %2 : f32
      linalg.yield %3 : f32
    }
    memref.dealloc %alloc : memref<37xf32>
    return
  }
}

