module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.depthwise_conv_2d_nhwc_hwc", shapes = "1x10x10x8xf32,3x3x8xf32->1x8x8x8xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x10x10x8xf32>, %f: memref<3x3x8xf32>, %o: memref<1x8x8x8xf32>) {
    %half = arith.constant 0.5 : f32
    linalg.fill ins(%half : f32) outs(%o : memref<1x8x8x8xf32>)
    linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<1x10x10x8xf32>, memref<3x3x8xf32>) outs(%o : memref<1x8x8x8xf32>)
    return
  }
}
