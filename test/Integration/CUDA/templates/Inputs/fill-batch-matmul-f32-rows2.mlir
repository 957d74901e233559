module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.batch_matmul", shapes = "3x2x700xf32,3x700x260xf32->3x2x260xf32", signature = "0">} {
  func.func @kernel(%a: memref<3x2x700xf32>, %b: memref<3x700x260xf32>, %c: memref<3x2x260xf32>) {
    %cst = arith.constant -2.500000e-01 : f32
    linalg.fill ins(%cst : f32) outs(%c : memref<3x2x260xf32>)
    linalg.batch_matmul ins(%a, %b : memref<3x2x700xf32>, memref<3x700x260xf32>) outs(%c : memref<3x2x260xf32>)
    return
  }
}
