// A B^T with f16 inputs and an f32 output.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "100x72xf16,60x72xf16->100x60xf32", signature = "0">} {
  func.func @kernel(%a: memref<100x72xf16>, %b: memref<60x72xf16>, %c: memref<100x60xf32>) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<100x72xf16>, memref<60x72xf16>) outs(%c : memref<100x60xf32>)
    return
  }
}
