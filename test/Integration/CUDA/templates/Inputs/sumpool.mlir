module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.pooling_nhwc_sum", shapes = "2x11x11x6xf32,3x3xf32->2x9x9x6xf32", signature = "0">} {
  func.func @kernel(%i: memref<2x11x11x6xf32>, %w: memref<3x3xf32>, %o: memref<2x9x9x6xf32>) {
    linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %w : memref<2x11x11x6xf32>, memref<3x3xf32>) outs(%o : memref<2x9x9x6xf32>)
    return
  }
}
