#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 7, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "3x77x40xf32,3x131x40xf32,3x131x24xf32->3x77x24xf32", signature = "ab8e6991aa42822bf5e7352d5e3ac64e">} {
  func.func @kernel(%arg0: memref<3x77x40xf32>, %arg1: memref<3x131x40xf32>, %arg2: memref<3x131x24xf32>, %arg3: memref<3x77x24xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %alloc = memref.alloc() : memref<3x77x131xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<3x77x131xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<3x77x40xf32>, memref<3x131x40xf32>) outs(%alloc : memref<3x77x131xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %0 = arith.mulf %in, %in_6 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    %alloc_1 = memref.alloc() : memref<3x77x131xf32>
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<3x77x131xf32>) outs(%alloc_1 : memref<3x77x131xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_6 = arith.constant 0.158113882 : f32
      %0 = arith.mulf %in, %cst_6 : f32
      linalg.yield %0 : f32
    }
    %alloc_2 = memref.alloc() : memref<3x77xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_2 : memref<3x77xf32>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_1 : memref<3x77x131xf32>) outs(%alloc_2 : memref<3x77xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_3 = memref.alloc() : memref<3x77x131xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1, %alloc_2 : memref<3x77x131xf32>, memref<3x77xf32>) outs(%alloc_3 : memref<3x77x131xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %0 = arith.subf %in, %in_6 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    %alloc_4 = memref.alloc() : memref<3x77xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_4 : memref<3x77xf32>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_3 : memref<3x77x131xf32>) outs(%alloc_4 : memref<3x77xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_5 = memref.alloc() : memref<3x77x131xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_3, %alloc_4 : memref<3x77x131xf32>, memref<3x77xf32>) outs(%alloc_5 : memref<3x77x131xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %0 = arith.divf %in, %in_6 : f32
      linalg.yield %0 : f32
    }
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<3x77x24xf32>)
    linalg.generic {indexing_maps = [#map, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_5, %arg2 : memref<3x77x131xf32>, memref<3x131x24xf32>) outs(%arg3 : memref<3x77x24xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %0 = arith.mulf %in, %in_6 : f32
      %1 = arith.addf %out, %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc : memref<3x77x131xf32>
    memref.dealloc %alloc_1 : memref<3x77x131xf32>
    memref.dealloc %alloc_2 : memref<3x77xf32>
    memref.dealloc %alloc_3 : memref<3x77x131xf32>
    memref.dealloc %alloc_4 : memref<3x77xf32>
    memref.dealloc %alloc_5 : memref<3x77x131xf32>
    return
  }
}

