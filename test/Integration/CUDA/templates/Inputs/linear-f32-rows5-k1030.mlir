module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "5x1030xf32,999x1030xf32->5x999xf32", signature = "0">} {
  func.func @kernel(%a: memref<5x1030xf32>, %b: memref<999x1030xf32>, %c: memref<5x999xf32>) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<5x1030xf32>, memref<999x1030xf32>) outs(%c : memref<5x999xf32>)
    return
  }
}
