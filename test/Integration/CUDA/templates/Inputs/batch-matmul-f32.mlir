module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.batch_matmul", shapes = "5x33x40xf32,5x40x48xf32->5x33x48xf32", signature = "0">} {
  func.func @kernel(%a: memref<5x33x40xf32>, %b: memref<5x40x48xf32>, %c: memref<5x33x48xf32>) {
    linalg.batch_matmul ins(%a, %b : memref<5x33x40xf32>, memref<5x40x48xf32>) outs(%c : memref<5x33x48xf32>)
    return
  }
}
