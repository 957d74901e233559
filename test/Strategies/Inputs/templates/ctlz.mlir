// A payload op without a CUDA translation.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "64xi32->64xi32", signature = "0">} {
  func.func @kernel(%x: memref<64xi32>, %y: memref<64xi32>) {
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
        ins(%x : memref<64xi32>) outs(%y : memref<64xi32>) {
      ^bb0(%in: i32, %out: i32):
        %r = math.ctlz %in : i32
        linalg.yield %r : i32
    }
    return
  }
}
