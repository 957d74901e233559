module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.conv_2d_nchw_fchw", shapes = "1x3x17x17xf32,8x3x3x3xf32->1x8x8x8xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x3x17x17xf32>, %f: memref<8x3x3x3xf32>, %o: memref<1x8x8x8xf32>) {
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : memref<1x3x17x17xf32>, memref<8x3x3x3xf32>) outs(%o : memref<1x8x8x8xf32>)
    return
  }
}
