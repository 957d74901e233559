module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nhwc_hwcf", shapes = "2x18x18x16xf32,3x3x16x32xf32->2x16x16x32xf32", signature = "0">} {
  func.func @kernel(%i: memref<2x18x18x16xf32>, %f: memref<3x3x16x32xf32>, %o: memref<2x16x16x32xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%o : memref<2x16x16x32xf32>)
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<2x18x18x16xf32>, memref<3x3x16x32xf32>) outs(%o : memref<2x16x16x32xf32>)
    return
  }
}
