module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matvec", shapes = "300x1000xf32,1000xf32->300xf32", signature = "0">} {
  func.func @kernel(%a: memref<300x1000xf32>, %x: memref<1000xf32>, %y: memref<300xf32>) {
    linalg.matvec ins(%a, %x : memref<300x1000xf32>, memref<1000xf32>) outs(%y : memref<300xf32>)
    return
  }
}
