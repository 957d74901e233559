// A 64x1024 * 1024x64 bf16 matmul whose baseline accumulates in bf16.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<64x1024xbf16>, %B: memref<1024x64xbf16>, %C: memref<64x64xbf16>) {
    linalg.matmul ins(%A, %B : memref<64x1024xbf16>, memref<1024x64xbf16>) outs(%C : memref<64x64xbf16>)
    return
  }
}
