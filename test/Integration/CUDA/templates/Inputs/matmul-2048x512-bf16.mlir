// A 2048x2048 bf16 GEMM over k = 512 with an f32 output: every size a
// multiple of the wgmma tiles, and eight k-tiles, so the copy ring wraps.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "2048x512xbf16,512x2048xbf16->2048x2048xf32", signature = "0">} {
  func.func @kernel(%a: memref<2048x512xbf16>, %b: memref<512x2048xbf16>, %c: memref<2048x2048xf32>) {
    linalg.matmul ins(%a, %b : memref<2048x512xbf16>, memref<512x2048xbf16>) outs(%c : memref<2048x2048xf32>)
    return
  }
}
