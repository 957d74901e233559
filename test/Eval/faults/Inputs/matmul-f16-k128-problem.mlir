// An 8x128 * 128x8 f16 matmul whose baseline accumulates in f16: on the large
// distribution (+-1e2) its partial sums can leave the f16 range.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<8x128xf16>, %B: memref<128x8xf16>, %C: memref<8x8xf16>) {
    linalg.matmul ins(%A, %B : memref<8x128xf16>, memref<128x8xf16>) outs(%C : memref<8x8xf16>)
    return
  }
}
