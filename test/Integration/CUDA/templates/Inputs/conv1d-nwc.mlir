module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.conv_1d_nwc_wcf", shapes = "2x43x6xf32,5x6x10xf32->2x18x10xf32", signature = "0">} {
  func.func @kernel(%i: memref<2x43x6xf32>, %f: memref<5x6x10xf32>, %o: memref<2x18x10xf32>) {
    linalg.conv_1d_nwc_wcf {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
      ins(%i, %f : memref<2x43x6xf32>, memref<5x6x10xf32>) outs(%o : memref<2x18x10xf32>)
    return
  }
}
