// Causal bf16 attention as torch-mlir writes it for a batch of one (2 heads
// of 64 queries, head dim 64): Q, K and V split into heads from [S, H*D]
// projections, the output joined back. Outlined by
// `stark-opt --stark-unit-dim-transposes --stark-outline="all profile=h200"`
// from test/Transforms/stark-outline-attention-heads.mlir: Q and V are read
// as [S, H, D] through their transposes, K^T through its own, and the
// output is written as [S, H, D] through the transpose after P V.
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 11, num_outputs = 1, op = "fused(linalg.transpose,linalg.transpose,linalg.transpose,linalg.batch_matmul,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.generic,linalg.batch_matmul,linalg.transpose)", shapes = "64x2x64xbf16,2x64x64xbf16,64x2x64xbf16->64x2x64xbf16", signature = "95972351aa66bfac3ed54cdcaf593521">} {
  func.func @kernel(%arg0: memref<64x2x64xbf16>, %arg1: memref<2x64x64xbf16>, %arg2: memref<64x2x64xbf16>, %arg3: memref<64x2x64xbf16>) {
    %cst = arith.constant 0.000000e+00 : bf16
    %cst_0 = arith.constant 1.250000e-01 : bf16
    %cst_1 = arith.constant 0xFF80 : bf16
    %alloc = memref.alloc() : memref<2x64x64xbf16>
    linalg.transpose ins(%arg0 : memref<64x2x64xbf16>) outs(%alloc : memref<2x64x64xbf16>) permutation = [1, 0, 2] 
    %alloc_2 = memref.alloc() : memref<2x64x64xbf16>
    linalg.transpose ins(%arg1 : memref<2x64x64xbf16>) outs(%alloc_2 : memref<2x64x64xbf16>) permutation = [0, 2, 1] 
    %alloc_3 = memref.alloc() : memref<2x64x64xbf16>
    linalg.transpose ins(%arg2 : memref<64x2x64xbf16>) outs(%alloc_3 : memref<2x64x64xbf16>) permutation = [1, 0, 2] 
    %alloc_4 = memref.alloc() : memref<2x64x64xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc_4 : memref<2x64x64xbf16>)
    linalg.batch_matmul ins(%alloc, %alloc_2 : memref<2x64x64xbf16>, memref<2x64x64xbf16>) outs(%alloc_4 : memref<2x64x64xbf16>)
    %alloc_5 = memref.alloc() : memref<2x64x64xbf16>
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_4 : memref<2x64x64xbf16>) outs(%alloc_5 : memref<2x64x64xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.mulf %in, %cst_0 : bf16
      %1 = linalg.index 1 : index
      %2 = linalg.index 2 : index
      %3 = arith.cmpi ugt, %2, %1 : index
      %4 = arith.select %3, %cst_1, %cst : bf16
      %5 = arith.addf %0, %4 : bf16
      linalg.yield %5 : bf16
    }
    %alloc_6 = memref.alloc() : memref<2x64xbf16>
    linalg.fill ins(%cst_1 : bf16) outs(%alloc_6 : memref<2x64xbf16>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_5 : memref<2x64x64xbf16>) outs(%alloc_6 : memref<2x64xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.maximumf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_7 = memref.alloc() : memref<2x64x64xbf16>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_5, %alloc_6 : memref<2x64x64xbf16>, memref<2x64xbf16>) outs(%alloc_7 : memref<2x64x64xbf16>) {
    ^bb0(%in: bf16, %in_11: bf16, %out: bf16):
      %0 = arith.subf %in, %in_11 : bf16
      %1 = math.exp %0 : bf16
      linalg.yield %1 : bf16
    }
    %alloc_8 = memref.alloc() : memref<2x64xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc_8 : memref<2x64xbf16>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%alloc_7 : memref<2x64x64xbf16>) outs(%alloc_8 : memref<2x64xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %0 = arith.addf %in, %out : bf16
      linalg.yield %0 : bf16
    }
    %alloc_9 = memref.alloc() : memref<2x64x64xbf16>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_7, %alloc_8 : memref<2x64x64xbf16>, memref<2x64xbf16>) outs(%alloc_9 : memref<2x64x64xbf16>) {
    ^bb0(%in: bf16, %in_11: bf16, %out: bf16):
      %0 = arith.divf %in, %in_11 : bf16
      linalg.yield %0 : bf16
    }
    %alloc_10 = memref.alloc() : memref<2x64x64xbf16>
    linalg.fill ins(%cst : bf16) outs(%alloc_10 : memref<2x64x64xbf16>)
    linalg.batch_matmul ins(%alloc_9, %alloc_3 : memref<2x64x64xbf16>, memref<2x64x64xbf16>) outs(%alloc_10 : memref<2x64x64xbf16>)
    linalg.transpose ins(%alloc_10 : memref<2x64x64xbf16>) outs(%arg3 : memref<64x2x64xbf16>) permutation = [1, 0, 2] 
    memref.dealloc %alloc : memref<2x64x64xbf16>
    memref.dealloc %alloc_2 : memref<2x64x64xbf16>
    memref.dealloc %alloc_3 : memref<2x64x64xbf16>
    memref.dealloc %alloc_4 : memref<2x64x64xbf16>
    memref.dealloc %alloc_5 : memref<2x64x64xbf16>
    memref.dealloc %alloc_6 : memref<2x64xbf16>
    memref.dealloc %alloc_7 : memref<2x64x64xbf16>
    memref.dealloc %alloc_8 : memref<2x64xbf16>
    memref.dealloc %alloc_9 : memref<2x64x64xbf16>
    memref.dealloc %alloc_10 : memref<2x64x64xbf16>
    return
  }
}

