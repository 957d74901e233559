module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.batch_matmul", shapes = "2x1000x520xf32,2x1030x520xf32->2x1000x1030xf32", signature = "0">} {
  func.func @kernel(%a: memref<2x1000x520xf32>, %b: memref<2x1030x520xf32>, %c: memref<2x1000x1030xf32>) {
    linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : memref<2x1000x520xf32>, memref<2x1030x520xf32>) outs(%c : memref<2x1000x1030xf32>)
    return
  }
}
