module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "200x136xf16,120x136xf16->200x120xf32", signature = "0">} {
  func.func @kernel(%a: memref<200x136xf16>, %b: memref<120x136xf16>, %c: memref<200x120xf32>) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<200x136xf16>, memref<120x136xf16>) outs(%c : memref<200x120xf32>)
    return
  }
}
