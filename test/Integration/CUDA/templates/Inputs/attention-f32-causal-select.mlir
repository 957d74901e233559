#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 8, num_outputs = 1, op = "fused(linalg.transpose,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "4x128x64xf32,4x128x64xf32,4x128x64xf32->4x128x64xf32", signature = "0c169d583f19beaf54bfa6157639f4b7">} {
  func.func @kernel(%arg0: memref<4x128x64xf32>, %arg1: memref<4x128x64xf32>, %arg2: memref<4x128x64xf32>, %arg3: memref<4x128x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %alloc = memref.alloc() : memref<4x64x128xf32>
    linalg.transpose ins(%arg0 : memref<4x128x64xf32>) outs(%alloc : memref<4x64x128xf32>) permutation = [0, 2, 1] 
    %alloc_1 = memref.alloc() : memref<4x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_1 : memref<4x128x128xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %alloc : memref<4x128x64xf32>, memref<4x64x128xf32>) outs(%alloc_1 : memref<4x128x128xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %0 = arith.mulf %in, %in_7 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    %alloc_2 = memref.alloc() : memref<4x128x128xf32>
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1 : memref<4x128x128xf32>) outs(%alloc_2 : memref<4x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_7 = arith.constant 1.250000e-01 : f32
      %0 = arith.mulf %in, %cst_7 : f32
      %1 = linalg.index 1 : index
      %2 = linalg.index 2 : index
      %3 = arith.cmpi ugt, %2, %1 : index
      %4 = arith.select %3, %cst_0, %0 : f32
      linalg.yield %4 : f32
    }
    %alloc_3 = memref.alloc() : memref<4x128xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_3 : memref<4x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_2 : memref<4x128x128xf32>) outs(%alloc_3 : memref<4x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_4 = memref.alloc() : memref<4x128x128xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_2, %alloc_3 : memref<4x128x128xf32>, memref<4x128xf32>) outs(%alloc_4 : memref<4x128x128xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %0 = arith.subf %in, %in_7 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    %alloc_5 = memref.alloc() : memref<4x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_5 : memref<4x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_4 : memref<4x128x128xf32>) outs(%alloc_5 : memref<4x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_6 = memref.alloc() : memref<4x128x128xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4, %alloc_5 : memref<4x128x128xf32>, memref<4x128xf32>) outs(%alloc_6 : memref<4x128x128xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %0 = arith.divf %in, %in_7 : f32
      linalg.yield %0 : f32
    }
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<4x128x64xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6, %arg2 : memref<4x128x128xf32>, memref<4x128x64xf32>) outs(%arg3 : memref<4x128x64xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %0 = arith.mulf %in, %in_7 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc : memref<4x64x128xf32>
    memref.dealloc %alloc_1 : memref<4x128x128xf32>
    memref.dealloc %alloc_2 : memref<4x128x128xf32>
    memref.dealloc %alloc_3 : memref<4x128xf32>
    memref.dealloc %alloc_4 : memref<4x128x128xf32>
    memref.dealloc %alloc_5 : memref<4x128xf32>
    memref.dealloc %alloc_6 : memref<4x128x128xf32>
    return
  }
}

