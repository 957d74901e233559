module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "97x75xf16,75x83xf16->97x83xf32", signature = "0">} {
  func.func @kernel(%a: memref<97x75xf16>, %b: memref<75x83xf16>, %c: memref<97x83xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<97x83xf32>)
    linalg.matmul ins(%a, %b : memref<97x75xf16>, memref<75x83xf16>) outs(%c : memref<97x83xf32>)
    return
  }
}
