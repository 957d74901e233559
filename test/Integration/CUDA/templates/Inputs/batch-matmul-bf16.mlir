module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.batch_matmul", shapes = "3x70x64xbf16,3x64x96xbf16->3x70x96xf32", signature = "0">} {
  func.func @kernel(%a: memref<3x70x64xbf16>, %b: memref<3x64x96xbf16>, %c: memref<3x70x96xf32>) {
    linalg.batch_matmul ins(%a, %b : memref<3x70x64xbf16>, memref<3x64x96xbf16>) outs(%c : memref<3x70x96xf32>)
    return
  }
}
