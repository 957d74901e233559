// Two outputs with very different reduction lengths: the row sums of a
// 16x4096 matrix and of a 16x4 matrix, each added to its output's initial
// contents (both outputs are read).
#in = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 2, op = "fused(linalg.generic,linalg.generic)", signature = "0000000000000000">} {
  func.func @kernel(%X: memref<16x4096xf32>, %Z: memref<16x4xf32>, %SX: memref<16xf32>, %SZ: memref<16xf32>) {
    linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
        ins(%X : memref<16x4096xf32>) outs(%SX : memref<16xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %y, %x : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
        ins(%Z : memref<16x4xf32>) outs(%SZ : memref<16xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %y, %x : f32
      linalg.yield %s : f32
    }
    return
  }
}
