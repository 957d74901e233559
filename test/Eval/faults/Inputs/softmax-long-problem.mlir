// Softmax over the rows of an 8x1000 f32 matrix; the output is write-only.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.softmax", signature = "0000000000000000">} {
  func.func @kernel(%x: memref<8x1000xf32>, %y: memref<8x1000xf32>) {
    linalg.softmax dimension(1) ins(%x : memref<8x1000xf32>) outs(%y : memref<8x1000xf32>)
    return
  }
}
