#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.conv_2d_nhwc_hwcf,linalg.generic)", shapes = "2x10x9x5xf32,3x3x5x6xf32,2x8x7x6xf32->2x8x7x6xf32", signature = "4e0286876c4441906b59eb3ce2247f17">} {
  func.func @kernel(%arg0: memref<2x10x9x5xf32>, %arg1: memref<3x3x5x6xf32>, %arg2: memref<2x8x7x6xf32>, %arg3: memref<2x8x7x6xf32>) {
    %cst = arith.constant 5.000000e-01 : f32
    %alloc = memref.alloc() : memref<2x8x7x6xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x8x7x6xf32>)
    linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%arg0, %arg1 : memref<2x10x9x5xf32>, memref<3x3x5x6xf32>) outs(%alloc : memref<2x8x7x6xf32>)
    linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc, %arg2 : memref<2x8x7x6xf32>, memref<2x8x7x6xf32>) outs(%arg3 : memref<2x8x7x6xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.addf %in, %in_0 : f32
      %1 = math.tanh %0 : f32
      linalg.yield %1 : f32
    }
    memref.dealloc %alloc : memref<2x8x7x6xf32>
    return
  }
}
