#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 8, num_outputs = 1, op = "fused(linalg.transpose,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "4x200x128xbf16,4x200x128xbf16,4x200x128xbf16->4x200x128xbf16", signature = "13245d2604c38cd04498604784b8023d">} {
  func.func @kernel(%arg0: memref<4x200x128xbf16>, %arg1: memref<4x200x128xbf16>, %arg2: memref<4x200x128xbf16>, %arg3: memref<4x200x128xbf16>) {
    %cst = arith.constant 0.000000e+00 : bf16
    %cst_0 = arith.constant 0xFF80 : bf16
    %alloc = memref.alloc() : memref<4x128x200xbf16>
    linalg.transpose ins(%arg0 : memref<4x200x128xbf16>) outs(%alloc : memref<4x128x200xbf16>) permutation = [0, 2, 1] 
    %alloc_1 = memref.alloc() : memref<4x200x200xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc_1 : memref<4x200x200xbf16>)
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %alloc : memref<4x200x128xbf16>, memref<4x128x200xbf16>) outs(%alloc_1 : memref<4x200x200xbf16>) {
    ^bb0(%in: bf16, %in_7: bf16, %out: bf16):
      %0 = arith.mulf %in, %in_7 : bf16
      %1 = arith.addf %out, %0 : bf16
      linalg.yield %1 : bf16
    }
    %alloc_2 = memref.alloc() : memref<4x200x200xbf16>
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_1 : memref<4x200x200xbf16>) outs(%alloc_2 : memref<4x200x200xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %cst_7 = arith.constant 1.131250e+01 : bf16
      %0 = arith.divf %in, %cst_7 : bf16
      %1 = linalg.index 1 : index
      %2 = linalg.index 2 : index
      %3 = arith.cmpi ugt, %2, %1 : index
      %4 = arith.select %3, %cst_0, %cst : bf16
      %5 = arith.addf %0, %4 : bf16
      linalg.yield %5 : bf16
    }
    %alloc_3 = memref.alloc() : memref<4x200xbf16>
    linalg.fill ins(%cst_0 : bf16) outs(%alloc_3 : memref<4x200xbf16>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_2 : memref<4x200x200xbf16>) outs(%alloc_3 : memref<4x200xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.maximumf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_4 = memref.alloc() : memref<4x200x200xbf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_2, %alloc_3 : memref<4x200x200xbf16>, memref<4x200xbf16>) outs(%alloc_4 : memref<4x200x200xbf16>) {
    ^bb0(%in: bf16, %in_7: bf16, %out: bf16):
      %0 = arith.subf %in, %in_7 : bf16
      %1 = math.exp %0 : bf16
      linalg.yield %1 : bf16
    }
    %alloc_5 = memref.alloc() : memref<4x200xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc_5 : memref<4x200xbf16>)
    linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_4 : memref<4x200x200xbf16>) outs(%alloc_5 : memref<4x200xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.addf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_6 = memref.alloc() : memref<4x200x200xbf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4, %alloc_5 : memref<4x200x200xbf16>, memref<4x200xbf16>) outs(%alloc_6 : memref<4x200x200xbf16>) {
    ^bb0(%in: bf16, %in_7: bf16, %out: bf16):
      %0 = arith.divf %in, %in_7 : bf16
      linalg.yield %0 : bf16
    }
    linalg.fill ins(%cst : bf16) outs(%arg3 : memref<4x200x128xbf16>)
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%alloc_6, %arg2 : memref<4x200x200xbf16>, memref<4x200x128xbf16>) outs(%arg3 : memref<4x200x128xbf16>) {
    ^bb0(%in: bf16, %in_7: bf16, %out: bf16):
      %0 = arith.mulf %in, %in_7 : bf16
      %1 = arith.addf %out, %0 : bf16
      linalg.yield %1 : bf16
    }
    memref.dealloc %alloc : memref<4x128x200xbf16>
    memref.dealloc %alloc_1 : memref<4x200x200xbf16>
    memref.dealloc %alloc_2 : memref<4x200x200xbf16>
    memref.dealloc %alloc_3 : memref<4x200xbf16>
    memref.dealloc %alloc_4 : memref<4x200x200xbf16>
    memref.dealloc %alloc_5 : memref<4x200xbf16>
    memref.dealloc %alloc_6 : memref<4x200x200xbf16>
    return
  }
}

