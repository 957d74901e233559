// Row maxima of an 8x33 f32 matrix with arith.maximumf, which propagates
// NaN, into the initial contents of the output (read: the init is used).
#in = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", signature = "0000000000000000">} {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8xf32>) {
    linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
        ins(%X : memref<8x33xf32>) outs(%Y : memref<8xf32>) {
    ^bb0(%x: f32, %y: f32):
      %m = arith.maximumf %y, %x : f32
      linalg.yield %m : f32
    }
    return
  }
}
