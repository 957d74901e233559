// Layer normalisation over the rows of an 8x64 f32 matrix with a scale
// and a shift per column (mean, variance about the mean, then
// (x - mean) * rsqrt(var + 1e-5) * gamma + beta); the output is
// write-only.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic)", signature = "0000000000000000">} {
  func.func @kernel(%arg0: memref<8x64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xf32>, %arg3: memref<8x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 6.400000e+01 : f32
    %cst_1 = arith.constant 9.99999974E-6 : f32
    %alloc = memref.alloc() : memref<8xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<8xf32>)
    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : memref<8x64xf32>) outs(%alloc : memref<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.addf %out, %in : f32
      linalg.yield %0 : f32
    }
    %alloc_2 = memref.alloc() : memref<8xf32>
    linalg.fill ins(%cst : f32) outs(%alloc_2 : memref<8xf32>)
    linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0, %alloc : memref<8x64xf32>, memref<8xf32>) outs(%alloc_2 : memref<8xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %0 = arith.divf %in_3, %cst_0 : f32
      %1 = arith.subf %in, %0 : f32
      %2 = arith.mulf %1, %1 : f32
      %3 = arith.addf %out, %2 : f32
      linalg.yield %3 : f32
    }
    linalg.generic {indexing_maps = [#map, #map1, #map1, #map2, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %alloc, %alloc_2, %arg1, %arg2 : memref<8x64xf32>, memref<8xf32>, memref<8xf32>, memref<64xf32>, memref<64xf32>) outs(%arg3 : memref<8x64xf32>) {
    ^bb0(%in: f32, %in_3: f32, %in_4: f32, %in_5: f32, %in_6: f32, %out: f32):
      %0 = arith.divf %in_3, %cst_0 : f32
      %1 = arith.divf %in_4, %cst_0 : f32
      %2 = arith.addf %1, %cst_1 : f32
      %3 = math.rsqrt %2 : f32
      %4 = arith.subf %in, %0 : f32
      %5 = arith.mulf %4, %3 : f32
      %6 = arith.mulf %5, %in_5 : f32
      %7 = arith.addf %6, %in_6 : f32
      linalg.yield %7 : f32
    }
    memref.dealloc %alloc : memref<8xf32>
    memref.dealloc %alloc_2 : memref<8xf32>
    return
  }
}
