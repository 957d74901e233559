// A 2048^3 bf16 GEMM with an f32 output: every size a multiple of the
// wgmma tiles.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "2048x2048xbf16,2048x2048xbf16->2048x2048xf32", signature = "0">} {
  func.func @kernel(%a: memref<2048x2048xbf16>, %b: memref<2048x2048xbf16>, %c: memref<2048x2048xf32>) {
    linalg.matmul ins(%a, %b : memref<2048x2048xbf16>, memref<2048x2048xbf16>) outs(%c : memref<2048x2048xf32>)
    return
  }
}
