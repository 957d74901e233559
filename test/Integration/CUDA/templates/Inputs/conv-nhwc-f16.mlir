module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.conv_2d_nhwc_hwcf", shapes = "1x15x15x24xf16,3x3x24x40xf16->1x7x7x40xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x15x15x24xf16>, %f: memref<3x3x24x40xf16>, %o: memref<1x7x7x40xf32>) {
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : memref<1x15x15x24xf16>, memref<3x3x24x40xf16>) outs(%o : memref<1x7x7x40xf32>)
    return
  }
}
