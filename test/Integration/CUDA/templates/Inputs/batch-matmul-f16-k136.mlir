// f16 batches whose m (200), n (264) and k (136) are no multiples of the
// GEMM tiles, only n and k of 8.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.batch_matmul", shapes = "2x200x136xf16,2x136x264xf16->2x200x264xf32", signature = "0">} {
  func.func @kernel(%a: memref<2x200x136xf16>, %b: memref<2x136x264xf16>, %c: memref<2x200x264xf32>) {
    linalg.batch_matmul ins(%a, %b : memref<2x200x136xf16>, memref<2x136x264xf16>) outs(%c : memref<2x200x264xf32>)
    return
  }
}
