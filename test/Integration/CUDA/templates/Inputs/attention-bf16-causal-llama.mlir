#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 9, num_outputs = 1, op = "fused(linalg.transpose,linalg.batch_matmul,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul)", shapes = "16x512x128xbf16,16x512x128xbf16,16x512x128xbf16->16x512x128xbf16", signature = "ad9f60f87d7a75028f6095d138a33660">} {
  func.func @kernel(%arg0: memref<16x512x128xbf16>, %arg1: memref<16x512x128xbf16>, %arg2: memref<16x512x128xbf16>, %arg3: memref<16x512x128xbf16>) {
    %cst = arith.constant 0.000000e+00 : bf16
    %cst_0 = arith.constant 8.837890e-02 : bf16
    %cst_1 = arith.constant 0xFF80 : bf16
    %cst_2 = arith.constant 0.000000e+00 : bf16
    %cst_3 = arith.constant 0xFF80 : bf16
    %cst_4 = arith.constant 0.000000e+00 : bf16
    %cst_5 = arith.constant 0.000000e+00 : bf16
    %alloc = memref.alloc() : memref<16x128x512xbf16>
    linalg.transpose ins(%arg0 : memref<16x512x128xbf16>) outs(%alloc : memref<16x128x512xbf16>) permutation = [0, 2, 1] 
    %alloc_6 = memref.alloc() : memref<16x512x512xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc_6 : memref<16x512x512xbf16>)
    linalg.batch_matmul ins(%arg1, %alloc : memref<16x512x128xbf16>, memref<16x128x512xbf16>) outs(%alloc_6 : memref<16x512x512xbf16>)
    %alloc_7 = memref.alloc() : memref<16x512x512xbf16>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_6 : memref<16x512x512xbf16>) outs(%alloc_7 : memref<16x512x512xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.mulf %in, %cst_0 : bf16
      linalg.yield %0 : bf16
    }
    %alloc_8 = memref.alloc() : memref<16x512x512xbf16>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_7 : memref<16x512x512xbf16>) outs(%alloc_8 : memref<16x512x512xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = linalg.index 1 : index
      %1 = linalg.index 2 : index
      %2 = arith.cmpi ugt, %1, %0 : index
      %3 = arith.select %2, %cst_1, %cst_2 : bf16
      %4 = arith.addf %in, %3 : bf16
      linalg.yield %4 : bf16
    }
    %alloc_9 = memref.alloc() : memref<16x512xbf16>
    linalg.fill ins(%cst_3 : bf16) outs(%alloc_9 : memref<16x512xbf16>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_8 : memref<16x512x512xbf16>) outs(%alloc_9 : memref<16x512xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.maximumf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_10 = memref.alloc() : memref<16x512x512xbf16>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_8, %alloc_9 : memref<16x512x512xbf16>, memref<16x512xbf16>) outs(%alloc_10 : memref<16x512x512xbf16>) {
    ^bb0(%in: bf16, %in_13: bf16, %out: bf16):
      %0 = arith.subf %in, %in_13 : bf16
      %1 = math.exp %0 : bf16
      linalg.yield %1 : bf16
    }
    %alloc_11 = memref.alloc() : memref<16x512xbf16>
    linalg.fill ins(%cst_4 : bf16) outs(%alloc_11 : memref<16x512xbf16>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_10 : memref<16x512x512xbf16>) outs(%alloc_11 : memref<16x512xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.addf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_12 = memref.alloc() : memref<16x512x512xbf16>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_10, %alloc_11 : memref<16x512x512xbf16>, memref<16x512xbf16>) outs(%alloc_12 : memref<16x512x512xbf16>) {
    ^bb0(%in: bf16, %in_13: bf16, %out: bf16):
      %0 = arith.divf %in, %in_13 : bf16
      linalg.yield %0 : bf16
    }
    linalg.fill ins(%cst_5 : bf16) outs(%arg3 : memref<16x512x128xbf16>)
    linalg.batch_matmul ins(%alloc_12, %arg2 : memref<16x512x512xbf16>, memref<16x512x128xbf16>) outs(%arg3 : memref<16x512x128xbf16>)
    memref.dealloc %alloc : memref<16x128x512xbf16>
    memref.dealloc %alloc_6 : memref<16x512x512xbf16>
    memref.dealloc %alloc_7 : memref<16x512x512xbf16>
    memref.dealloc %alloc_8 : memref<16x512x512xbf16>
    memref.dealloc %alloc_9 : memref<16x512xbf16>
    memref.dealloc %alloc_10 : memref<16x512x512xbf16>
    memref.dealloc %alloc_11 : memref<16x512xbf16>
    memref.dealloc %alloc_12 : memref<16x512x512xbf16>
    return
  }
}

