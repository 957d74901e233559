module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "64x512xf32,512x64xf32->64x64xf32", signature = "0">} {
  func.func @kernel(%a: memref<64x512xf32>, %b: memref<512x64xf32>, %c: memref<64x64xf32>) {
    linalg.matmul ins(%a, %b : memref<64x512xf32>, memref<512x64xf32>) outs(%c : memref<64x64xf32>)
    return
  }
}
