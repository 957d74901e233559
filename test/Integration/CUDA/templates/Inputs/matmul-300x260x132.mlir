module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "300x132xf32,132x260xf32->300x260xf32", signature = "0">} {
  func.func @kernel(%a: memref<300x132xf32>, %b: memref<132x260xf32>, %c: memref<300x260xf32>) {
    linalg.matmul ins(%a, %b : memref<300x132xf32>, memref<132x260xf32>) outs(%c : memref<300x260xf32>)
    return
  }
}
