module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "132x200xf32,132x72xf32->200x72xf32", signature = "0">} {
  func.func @kernel(%a: memref<132x200xf32>, %b: memref<132x72xf32>, %c: memref<200x72xf32>) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<132x200xf32>, memref<132x72xf32>) outs(%c : memref<200x72xf32>)
    return
  }
}
