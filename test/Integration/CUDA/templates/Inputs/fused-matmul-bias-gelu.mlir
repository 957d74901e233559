#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.matmul,linalg.generic)", shapes = "100x72xf32,72x130xf32,130xf32->100x130xf32", signature = "0">} {
  func.func @kernel(%a: memref<100x72xf32>, %b: memref<72x130xf32>, %bias: memref<130xf32>, %out: memref<100x130xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %c = memref.alloc() : memref<100x130xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<100x130xf32>)
    linalg.matmul ins(%a, %b : memref<100x72xf32>, memref<72x130xf32>) outs(%c : memref<100x130xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<100x130xf32>, memref<130xf32>) outs(%out : memref<100x130xf32>) {
    ^bb0(%x: f32, %bb: f32, %o: f32):
      %half = arith.constant 5.000000e-01 : f32
      %one = arith.constant 1.000000e+00 : f32
      %rsqrt2 = arith.constant 0.707106769 : f32
      %y = arith.addf %x, %bb : f32
      %t = arith.mulf %y, %rsqrt2 : f32
      %e = math.erf %t : f32
      %p = arith.addf %e, %one : f32
      %h = arith.mulf %y, %half : f32
      %r = arith.mulf %h, %p : f32
      linalg.yield %r : f32
    }
    memref.dealloc %c : memref<100x130xf32>
    return
  }
}
