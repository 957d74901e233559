#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 7, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "8x256x40xbf16,8x320x40xbf16,8x320x40xbf16->8x256x40xbf16", signature = "1215c211858e5c506b59808bfb6d6528">} {
  func.func @kernel(%arg0: memref<8x256x40xbf16>, %arg1: memref<8x320x40xbf16>, %arg2: memref<8x320x40xbf16>, %arg3: memref<8x256x40xbf16>) {
    %cst = arith.constant 0.000000e+00 : bf16
    %cst_0 = arith.constant 0xFF80 : bf16
    %alloc = memref.alloc() : memref<8x256x320xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc : memref<8x256x320xbf16>)
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<8x256x40xbf16>, memref<8x320x40xbf16>) outs(%alloc : memref<8x256x320xbf16>) {
    ^bb0(%in: bf16, %in_6: bf16, %out: bf16):
      %0 = arith.mulf %in, %in_6 : bf16
      %1 = arith.addf %out, %0 : bf16
      linalg.yield %1 : bf16
    }
    %alloc_1 = memref.alloc() : memref<8x256x320xbf16>
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<8x256x320xbf16>) outs(%alloc_1 : memref<8x256x320xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %cst_6 = arith.constant 1.250000e-01 : bf16
      %0 = arith.mulf %in, %cst_6 : bf16
      linalg.yield %0 : bf16
    }
    %alloc_2 = memref.alloc() : memref<8x256xbf16>
    linalg.fill ins(%cst_0 : bf16) outs(%alloc_2 : memref<8x256xbf16>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_1 : memref<8x256x320xbf16>) outs(%alloc_2 : memref<8x256xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.maximumf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_3 = memref.alloc() : memref<8x256x320xbf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1, %alloc_2 : memref<8x256x320xbf16>, memref<8x256xbf16>) outs(%alloc_3 : memref<8x256x320xbf16>) {
    ^bb0(%in: bf16, %in_6: bf16, %out: bf16):
      %0 = arith.subf %in, %in_6 : bf16
      %1 = math.exp %0 : bf16
      linalg.yield %1 : bf16
    }
    %alloc_4 = memref.alloc() : memref<8x256xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc_4 : memref<8x256xbf16>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_3 : memref<8x256x320xbf16>) outs(%alloc_4 : memref<8x256xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.addf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_5 = memref.alloc() : memref<8x256x320xbf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_3, %alloc_4 : memref<8x256x320xbf16>, memref<8x256xbf16>) outs(%alloc_5 : memref<8x256x320xbf16>) {
    ^bb0(%in: bf16, %in_6: bf16, %out: bf16):
      %0 = arith.divf %in, %in_6 : bf16
      linalg.yield %0 : bf16
    }
    linalg.fill ins(%cst : bf16) outs(%arg3 : memref<8x256x40xbf16>)
    linalg.generic {indexing_maps = [#map, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_5, %arg2 : memref<8x256x320xbf16>, memref<8x320x40xbf16>) outs(%arg3 : memref<8x256x40xbf16>) {
    ^bb0(%in: bf16, %in_6: bf16, %out: bf16):
      %0 = arith.mulf %in, %in_6 : bf16
      %1 = arith.addf %out, %0 : bf16
      linalg.yield %1 : bf16
    }
    memref.dealloc %alloc : memref<8x256x320xbf16>
    memref.dealloc %alloc_1 : memref<8x256x320xbf16>
    memref.dealloc %alloc_2 : memref<8x256xbf16>
    memref.dealloc %alloc_3 : memref<8x256x320xbf16>
    memref.dealloc %alloc_4 : memref<8x256xbf16>
    memref.dealloc %alloc_5 : memref<8x256x320xbf16>
    return
  }
}

