#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.fill,linalg.matmul,linalg.generic)", shapes = "300x1024xf32,3x1024xf32,3xf32->300x3xf32", signature = "0">} {
  func.func @kernel(%arg0: memref<300x1024xf32>, %arg1: memref<3x1024xf32>, %arg2: memref<3xf32>, %arg3: memref<300x3xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<300x3xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<300x3xf32>)
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%arg0, %arg1 : memref<300x1024xf32>, memref<3x1024xf32>) outs(%alloc : memref<300x3xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%alloc, %arg2 : memref<300x3xf32>, memref<3xf32>) outs(%arg3 : memref<300x3xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.addf %in, %in_0 : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<300x3xf32>
    return
  }
}
