// A depthwise convolution whose output is filled with 0.5 first: the
// evaluator NaN-prefills the output, so a kernel that reads it is wrong.
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.depthwise_conv_2d_nchw_chw", shapes = "2x24x20x18xf32,24x3x3xf32->2x24x18x16xf32", signature = "0">} {
  func.func @kernel(%i: memref<2x24x20x18xf32>, %f: memref<24x3x3xf32>, %o: memref<2x24x18x16xf32>) {
    %half = arith.constant 0.5 : f32
    linalg.fill ins(%half : f32) outs(%o : memref<2x24x18x16xf32>)
    linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<2x24x20x18xf32>, memref<24x3x3xf32>) outs(%o : memref<2x24x18x16xf32>)
    return
  }
}
