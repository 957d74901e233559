module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "3001x70xf32,3001x45xf32->70x45xf32", signature = "0">} {
  func.func @kernel(%a: memref<3001x70xf32>, %b: memref<3001x45xf32>, %c: memref<70x45xf32>) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<3001x70xf32>, memref<3001x45xf32>) outs(%c : memref<70x45xf32>)
    return
  }
}
