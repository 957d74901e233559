module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.conv_2d_nchw_fchw", shapes = "1x4x10x70xf32,16x4x3x3xf32->1x16x8x68xf32", signature = "0">} {
  func.func @kernel(%i: memref<1x4x10x70xf32>, %f: memref<16x4x3x3xf32>, %o: memref<1x16x8x68xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%o : memref<1x16x8x68xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%i, %f : memref<1x4x10x70xf32>, memref<16x4x3x3xf32>) outs(%o : memref<1x16x8x68xf32>)
    return
  }
}
