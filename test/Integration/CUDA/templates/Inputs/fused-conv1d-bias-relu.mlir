#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.conv_1d_ncw_fcw,linalg.generic,linalg.generic)", shapes = "3x5x70xf32,7x5x3xf32,7xf32->3x7x68xf32", signature = "4d1c98e047b1f53c1d92677188657acd">} {
  func.func @kernel(%arg0: memref<3x5x70xf32>, %arg1: memref<7x5x3xf32>, %arg2: memref<7xf32>, %arg3: memref<3x7x68xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %alloc = memref.alloc() : memref<3x7x68xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<3x7x68xf32>)
    linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%arg0, %arg1 : memref<3x5x70xf32>, memref<7x5x3xf32>) outs(%alloc : memref<3x7x68xf32>)
    %alloc_0 = memref.alloc() : memref<3x7x68xf32>
    linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %arg2 : memref<3x7x68xf32>, memref<7xf32>) outs(%alloc_0 : memref<3x7x68xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %0 = arith.addf %in, %in_1 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc_0 : memref<3x7x68xf32>) outs(%arg3 : memref<3x7x68xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.maximumf %in, %cst : f32
      linalg.yield %0 : f32
    }
    memref.dealloc %alloc : memref<3x7x68xf32>
    memref.dealloc %alloc_0 : memref<3x7x68xf32>
    return
  }
}
