#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.batch_matmul,linalg.generic)", shapes = "4x33x40xf32,4x40x48xf32->4x33x48xf32", signature = "0">} {
  func.func @kernel(%a: memref<4x33x40xf32>, %b: memref<4x40x48xf32>, %out: memref<4x33x48xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %c = memref.alloc() : memref<4x33x48xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<4x33x48xf32>)
    linalg.batch_matmul ins(%a, %b : memref<4x33x40xf32>, memref<4x40x48xf32>) outs(%c : memref<4x33x48xf32>)
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : memref<4x33x48xf32>) outs(%out : memref<4x33x48xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.constant 1.250000e-01 : f32
      %r = arith.mulf %x, %s : f32
      linalg.yield %r : f32
    }
    memref.dealloc %c : memref<4x33x48xf32>
    return
  }
}
