module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "512x2048xf32,2048x1024xf32->512x1024xf32", signature = "0">} {
  func.func @kernel(%a: memref<512x2048xf32>, %b: memref<2048x1024xf32>, %c: memref<512x1024xf32>) {
    linalg.matmul ins(%a, %b : memref<512x2048xf32>, memref<2048x1024xf32>) outs(%c : memref<512x1024xf32>)
    return
  }
}
