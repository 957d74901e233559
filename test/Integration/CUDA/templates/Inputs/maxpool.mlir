module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.pooling_nhwc_max", shapes = "1x9x9x4xf32,2x2xf32->1x4x4x4xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x9x9x4xf32>, %w: memref<2x2xf32>, %o: memref<1x4x4x4xf32>) {
    linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %w : memref<1x9x9x4xf32>, memref<2x2xf32>) outs(%o : memref<1x4x4x4xf32>)
    return
  }
}
