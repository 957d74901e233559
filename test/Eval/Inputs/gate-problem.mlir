// A steep gate on a dot product: y = tanh(3750 * (A B)), 128x64 * 64x128,
// f32. Where a sum lands near zero its exact value is ill-conditioned: a
// rounding error of the sum moves y by far more than the f32 bound.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "gate", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<128x64xf32>, %B: memref<64x128xf32>, %Y: memref<128x128xf32>) {
    %zero = arith.constant 0.0 : f32
    %T = memref.alloc() : memref<128x128xf32>
    linalg.fill ins(%zero : f32) outs(%T : memref<128x128xf32>)
    linalg.matmul ins(%A, %B : memref<128x64xf32>, memref<64x128xf32>) outs(%T : memref<128x128xf32>)
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%T : memref<128x128xf32>) outs(%Y : memref<128x128xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.constant 3750.0 : f32
      %sx = arith.mulf %x, %s : f32
      %t = math.tanh %sx : f32
      linalg.yield %t : f32
    }
    memref.dealloc %T : memref<128x128xf32>
    return
  }
}
