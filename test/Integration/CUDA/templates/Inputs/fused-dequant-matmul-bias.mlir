#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.matmul,linalg.generic)", shapes = "100x72xf32,72x130xf16,130xf32,130xf32->100x130xf32", signature = "0">} {
  func.func @kernel(%x: memref<100x72xf32>, %w: memref<72x130xf16>, %s: memref<130xf32>, %bias: memref<130xf32>, %out: memref<100x130xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %b = memref.alloc() : memref<72x130xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%w, %s : memref<72x130xf16>, memref<130xf32>) outs(%b : memref<72x130xf32>) {
    ^bb0(%v: f16, %k: f32, %o: f32):
      %e = arith.extf %v : f16 to f32
      %p = arith.mulf %e, %k : f32
      linalg.yield %p : f32
    }
    %c = memref.alloc() : memref<100x130xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<100x130xf32>)
    linalg.matmul ins(%x, %b : memref<100x72xf32>, memref<72x130xf32>) outs(%c : memref<100x130xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<100x130xf32>, memref<130xf32>) outs(%out : memref<100x130xf32>) {
    ^bb0(%y: f32, %t: f32, %o: f32):
      %z = arith.addf %y, %t : f32
      linalg.yield %z : f32
    }
    memref.dealloc %b : memref<72x130xf32>
    memref.dealloc %c : memref<100x130xf32>
    return
  }
}
