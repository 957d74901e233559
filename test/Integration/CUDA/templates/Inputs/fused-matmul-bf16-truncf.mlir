#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic)", shapes = "200x136xbf16,136x264xbf16->200x264xbf16", signature = "3062ce8f09fa0215a5fbe9527e02b461">} {
  func.func @kernel(%arg0: memref<200x136xbf16>, %arg1: memref<136x264xbf16>, %arg2: memref<200x264xbf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<200x264xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<200x264xf32>)
    linalg.matmul ins(%arg0, %arg1 : memref<200x136xbf16>, memref<136x264xbf16>) outs(%alloc : memref<200x264xf32>)
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc : memref<200x264xf32>) outs(%arg2 : memref<200x264xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %0 = arith.truncf %in : f32 to bf16
      linalg.yield %0 : bf16
    }
    memref.dealloc %alloc : memref<200x264xf32>
    return
  }
}

