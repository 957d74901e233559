// An 8x1024 * 1024x8 f16 matmul whose baseline accumulates in f16.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<8x1024xf16>, %B: memref<1024x8xf16>, %C: memref<8x8xf16>) {
    linalg.matmul ins(%A, %B : memref<8x1024xf16>, memref<1024x8xf16>) outs(%C : memref<8x8xf16>)
    return
  }
}
