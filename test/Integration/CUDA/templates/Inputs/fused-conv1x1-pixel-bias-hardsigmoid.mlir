#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.fill,linalg.conv_2d_nchw_fchw,linalg.generic)", shapes = "1x576x1x1xf32,144x576x1x1xf32,144xf32->1x144x1x1xf32", signature = "0">} {
  func.func @kernel(%arg0: memref<1x576x1x1xf32>, %arg1: memref<144x576x1x1xf32>, %arg2: memref<144xf32>, %arg3: memref<1x144x1x1xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %c3 = arith.constant 3.000000e+00 : f32
    %c6 = arith.constant 6.000000e+00 : f32
    %alloc = memref.alloc() : memref<1x144x1x1xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<1x144x1x1xf32>)
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %arg1 : memref<1x576x1x1xf32>, memref<144x576x1x1xf32>) outs(%alloc : memref<1x144x1x1xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%alloc, %arg2 : memref<1x144x1x1xf32>, memref<144xf32>) outs(%arg3 : memref<1x144x1x1xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %0 = arith.addf %in, %in_0 : f32
      %1 = arith.addf %0, %c3 : f32
      %2 = arith.maximumf %1, %cst : f32
      %3 = arith.minimumf %2, %c6 : f32
      %4 = arith.divf %3, %c6 : f32
      linalg.yield %4 : f32
    }
    memref.dealloc %alloc : memref<1x144x1x1xf32>
    return
  }
}
