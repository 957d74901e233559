module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.conv_2d_nchw_fchw", shapes = "1x240x14x14xf32,40x240x1x1xf32->1x40x14x14xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x240x14x14xf32>, %f: memref<40x240x1x1xf32>, %o: memref<1x40x14x14xf32>) {
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<1x240x14x14xf32>, memref<40x240x1x1xf32>) outs(%o : memref<1x40x14x14xf32>)
    return
  }
}
