// Row sums of a 16x33 f32 matrix, added to the initial contents of the
// output (the init operand is read by the payload).
#in = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", signature = "0000000000000000">} {
  func.func @kernel(%X: memref<16x33xf32>, %Y: memref<16xf32>) {
    linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
        ins(%X : memref<16x33xf32>) outs(%Y : memref<16xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %y, %x : f32
      linalg.yield %s : f32
    }
    return
  }
}
