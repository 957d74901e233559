module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.depthwise_conv_2d_nhwc_hwc", shapes = "2x12x12x24xf32,3x3x24xf32->2x10x10x24xf32", signature = "0">} {
  func.func @kernel(%i: memref<2x12x12x24xf32>, %f: memref<3x3x24xf32>, %o: memref<2x10x10x24xf32>) {
    linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<2x12x12x24xf32>, memref<3x3x24xf32>) outs(%o : memref<2x10x10x24xf32>)
    return
  }
}
