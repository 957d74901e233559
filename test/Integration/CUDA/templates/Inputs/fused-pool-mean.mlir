// Adaptive average pooling to 1 x 1 as stark-extracts-to-operands leaves
// it (the batch and the two unit output dimensions are loops of their own)
// with its divide: 2 x 8 x 14 x 14 summed over the window, then / 196.
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)", shapes = "2x8x14x14xf32->2x8x1x1xf32", signature = "00000000000000000000000000000031">} {
  func.func @kernel(%x: memref<2x8x14x14xf32>, %y: memref<2x8x1x1xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    %count = arith.constant 1.960000e+02 : f32
    %sum = memref.alloc() : memref<2x8x1x1xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<2x8x1x1xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x : memref<2x8x14x14xf32>) outs(%sum : memref<2x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %r = arith.addf %out, %in : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : memref<2x8x1x1xf32>) outs(%y : memref<2x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %r = arith.divf %in, %count : f32
      linalg.yield %r : f32
    }
    memref.dealloc %sum : memref<2x8x1x1xf32>
    return
  }
}
