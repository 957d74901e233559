#map = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#map1 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 4, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.softmax,linalg.generic)", shapes = "2x3x100x64xf16,2x3x100x64xf16,2x100x100xf16,2x3x100x64xf16->2x3x100x64xf16", signature = "e5dd8e144a573721fd531ddcb475a754">} {
  func.func @kernel(%arg0: memref<2x3x100x64xf16>, %arg1: memref<2x3x100x64xf16>, %arg2: memref<2x100x100xf16>, %arg3: memref<2x3x100x64xf16>, %arg4: memref<2x3x100x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f16
    %alloc = memref.alloc() : memref<2x3x100x100xf16>
    linalg.fill ins(%cst : f16) outs(%alloc : memref<2x3x100x100xf16>)
    linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<2x3x100x64xf16>, memref<2x3x100x64xf16>) outs(%alloc : memref<2x3x100x100xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %0 = arith.mulf %in, %in_2 : f16
      %1 = arith.addf %out, %0 : f16
      linalg.yield %1 : f16
    }
    %alloc_0 = memref.alloc() : memref<2x3x100x100xf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc, %arg2 : memref<2x3x100x100xf16>, memref<2x100x100xf16>) outs(%alloc_0 : memref<2x3x100x100xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %cst_3 = arith.constant 1.250000e-01 : f16
      %0 = arith.mulf %in, %cst_3 : f16
      %1 = arith.addf %0, %in_2 : f16
      linalg.yield %1 : f16
    }
    %alloc_1 = memref.alloc() : memref<2x3x100x100xf16>
    linalg.softmax dimension(3) ins(%alloc_0 : memref<2x3x100x100xf16>) outs(%alloc_1 : memref<2x3x100x100xf16>)
    linalg.fill ins(%cst : f16) outs(%arg4 : memref<2x3x100x64xf16>)
    linalg.generic {indexing_maps = [#map, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%alloc_1, %arg3 : memref<2x3x100x100xf16>, memref<2x3x100x64xf16>) outs(%arg4 : memref<2x3x100x64xf16>) {
    ^bb0(%in: f16, %in_2: f16, %out: f16):
      %0 = arith.mulf %in, %in_2 : f16
      %1 = arith.addf %out, %0 : f16
      linalg.yield %1 : f16
    }
    memref.dealloc %alloc : memref<2x3x100x100xf16>
    memref.dealloc %alloc_0 : memref<2x3x100x100xf16>
    memref.dealloc %alloc_1 : memref<2x3x100x100xf16>
    return
  }
}

