module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.dot", shapes = "100003xf32,100003xf32->f32", signature = "0">} {
  func.func @kernel(%a: memref<100003xf32>, %b: memref<100003xf32>, %y: memref<f32>) {
    linalg.dot ins(%a, %b : memref<100003xf32>, memref<100003xf32>) outs(%y : memref<f32>)
    return
  }
}
