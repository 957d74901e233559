// x * 2^126 of an 8x33 f32 matrix: a denormal input gives a normal output. The
// output is write-only.
#id = affine_map<(i, j) -> (i, j)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", signature = "0000000000000000">} {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%X : memref<8x33xf32>) outs(%Y : memref<8x33xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.constant 8.50705917e+37 : f32
      %r = arith.mulf %x, %s : f32
      linalg.yield %r : f32
    }
    return
  }
}
