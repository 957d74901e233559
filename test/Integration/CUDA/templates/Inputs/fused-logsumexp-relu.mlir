// bench/problems/gemm_logsumexp_relu.mlir's chain after the GEMM at its check
// shapes, as stark-outline writes it: one output per row.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1) -> (d0)>
#map6 = affine_map<(d0) -> (d0)>
module @stark_problem_1 attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 4, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic,linalg.generic)", shapes = "5x7xf32,7xf32->5xf32", signature = "6ca49e6f2ae94bc3a7d6de934f0faa15">} {
  func.func @kernel(%arg0: memref<5x7xf32>, %arg1: memref<7xf32>, %arg2: memref<5xf32>) {
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<5x7xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : memref<5x7xf32>, memref<7xf32>) outs(%alloc : memref<5x7xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.addf %in, %in_3 : f32
      linalg.yield %0 : f32
    }
    %alloc_1 = memref.alloc() : memref<5xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_1 : memref<5xf32>)
    linalg.generic {indexing_maps = [#map3, #map5], iterator_types = ["parallel", "reduction"]} ins(%alloc : memref<5x7xf32>) outs(%alloc_1 : memref<5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %out : f32
      linalg.yield %0 : f32
    }
    %alloc_2 = memref.alloc() : memref<5xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_2 : memref<5xf32>)
    linalg.generic {indexing_maps = [#map3, #map5, #map5], iterator_types = ["parallel", "reduction"]} ins(%alloc, %alloc_1 : memref<5x7xf32>, memref<5xf32>) outs(%alloc_2 : memref<5xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.subf %in, %in_3 : f32
      %1 = math.exp %0 : f32
      %2 = arith.addf %1, %out : f32
      linalg.yield %2 : f32
    }
    linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%alloc_1, %alloc_2 : memref<5xf32>, memref<5xf32>) outs(%arg2 : memref<5xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = math.log %in_3 : f32
      %1 = arith.addf %0, %in : f32
      %cst_4 = arith.constant 0.000000e+00 : f32
      %2 = arith.maximumf %1, %cst_4 : f32
      linalg.yield %2 : f32
    }
    memref.dealloc %alloc : memref<5x7xf32>
    memref.dealloc %alloc_1 : memref<5xf32>
    memref.dealloc %alloc_2 : memref<5xf32>
    return
  }
}
