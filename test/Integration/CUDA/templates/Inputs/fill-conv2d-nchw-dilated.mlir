module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nchw_fchw", shapes = "2x20x13x40xf32,9x20x3x2xf32->2x9x9x19xf32", signature = "0">} {
  func.func @kernel(%i: memref<2x20x13x40xf32>, %f: memref<9x20x3x2xf32>, %o: memref<2x9x9x19xf32>) {
    %half = arith.constant 0.5 : f32
    linalg.fill ins(%half : f32) outs(%o : memref<2x9x9x19xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<[2, 3]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
      ins(%i, %f : memref<2x20x13x40xf32>, memref<9x20x3x2xf32>) outs(%o : memref<2x9x9x19xf32>)
    return
  }
}
