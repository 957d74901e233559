// A saturating clamp of an 8x33 f32 matrix to [-60000, 60000] (the f16 range,
// as before a cast); finite inputs of moderate size never reach it. The output
// is write-only.
#id = affine_map<(i, j) -> (i, j)>
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", signature = "0000000000000000">} {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%X : memref<8x33xf32>) outs(%Y : memref<8x33xf32>) {
    ^bb0(%x: f32, %y: f32):
      %lo = arith.constant -6.0e4 : f32
      %hi = arith.constant 6.0e4 : f32
      %m = arith.maximumf %x, %lo : f32
      %r = arith.minimumf %m, %hi : f32
      linalg.yield %r : f32
    }
    return
  }
}
