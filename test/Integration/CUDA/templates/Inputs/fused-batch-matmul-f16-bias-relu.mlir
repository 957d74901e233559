#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.batch_matmul,linalg.generic)", shapes = "3x70x40xf16,3x40x136xf16,136xf32->3x70x136xf16", signature = "2477d68453a553ff0bebf6957274d928">} {
  func.func @kernel(%arg0: memref<3x70x40xf16>, %arg1: memref<3x40x136xf16>, %arg2: memref<136xf32>, %arg3: memref<3x70x136xf16>) {
    %cst = arith.constant 2.500000e-01 : f32
    %alloc = memref.alloc() : memref<3x70x136xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<3x70x136xf32>)
    linalg.batch_matmul ins(%arg0, %arg1 : memref<3x70x40xf16>, memref<3x40x136xf16>) outs(%alloc : memref<3x70x136xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %arg2 : memref<3x70x136xf32>, memref<136xf32>) outs(%arg3 : memref<3x70x136xf16>) {
    ^bb0(%in: f32, %in_0: f32, %out: f16):
      %0 = arith.addf %in, %in_0 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      %1 = arith.maximumf %0, %cst_1 : f32
      %2 = arith.truncf %1 : f32 to f16
      linalg.yield %2 : f16
    }
    memref.dealloc %alloc : memref<3x70x136xf32>
    return
  }
}

