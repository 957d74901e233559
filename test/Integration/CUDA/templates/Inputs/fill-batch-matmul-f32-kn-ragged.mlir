module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.batch_matmul", shapes = "2x1000x520xf32,2x520x1036xf32->2x1000x1036xf32", signature = "0">} {
  func.func @kernel(%a: memref<2x1000x520xf32>, %b: memref<2x520x1036xf32>, %c: memref<2x1000x1036xf32>) {
    %cst = arith.constant -2.500000e-01 : f32
    linalg.fill ins(%cst : f32) outs(%c : memref<2x1000x1036xf32>)
    linalg.batch_matmul ins(%a, %b : memref<2x1000x520xf32>, memref<2x520x1036xf32>) outs(%c : memref<2x1000x1036xf32>)
    return
  }
}
