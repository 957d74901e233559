#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.conv_2d_nchw_fchw,linalg.generic,linalg.generic)", shapes = "1x16x35x35xf32,24x16x3x3xf32,24xf32->1x24x17x17xf32", signature = "0">} {
  func.func @kernel(%arg0: memref<1x16x35x35xf32>, %arg1: memref<24x16x3x3xf32>, %arg2: memref<24xf32>, %arg3: memref<1x24x17x17xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<1x24x17x17xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<1x24x17x17xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%arg0, %arg1 : memref<1x16x35x35xf32>, memref<24x16x3x3xf32>) outs(%alloc : memref<1x24x17x17xf32>)
    %alloc_0 = memref.alloc() : memref<1x24x17x17xf32>
    linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc, %arg2 : memref<1x24x17x17xf32>, memref<24xf32>) outs(%alloc_0 : memref<1x24x17x17xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %0 = arith.addf %in, %in_1 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc_0 : memref<1x24x17x17xf32>) outs(%arg3 : memref<1x24x17x17xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %cst : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<1x24x17x17xf32>
    memref.dealloc %alloc_0 : memref<1x24x17x17xf32>
    return
  }
}
