module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "256x128xf32,128x512xf32->256x512xf32", signature = "0">} {
  func.func @kernel(%a: memref<256x128xf32>, %b: memref<128x512xf32>, %c: memref<256x512xf32>) {
    linalg.matmul ins(%a, %b : memref<256x128xf32>, memref<128x512xf32>) outs(%c : memref<256x512xf32>)
    return
  }
}
