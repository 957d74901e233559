module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "99x257xf32,131x99xf32->257x131xf32", signature = "0">} {
  func.func @kernel(%a: memref<99x257xf32>, %b: memref<131x99xf32>, %c: memref<257x131xf32>) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<99x257xf32>, memref<131x99xf32>) outs(%c : memref<257x131xf32>)
    return
  }
}
