// An 8x1024 * 1024x8 bf16 matmul whose baseline accumulates in bf16.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<8x1024xbf16>, %B: memref<1024x8xbf16>, %C: memref<8x8xbf16>) {
    linalg.matmul ins(%A, %B : memref<8x1024xbf16>, memref<1024x8xbf16>) outs(%C : memref<8x8xbf16>)
    return
  }
}
