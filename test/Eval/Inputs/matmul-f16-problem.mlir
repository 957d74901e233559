// An 8x16 * 16x8 f16 matmul, accumulating in f16.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<8x16xf16>, %B: memref<16x8xf16>, %C: memref<8x8xf16>) {
    linalg.matmul ins(%A, %B : memref<8x16xf16>, memref<16x8xf16>) outs(%C : memref<8x8xf16>)
    return
  }
}
