// t + transpose(t): one point of the chain reads t at two points.
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.generic,linalg.generic)", shapes = "8x8xf32->8x8xf32", signature = "00000000000000000000000000000022">} {
  func.func @kernel(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
    %one = arith.constant 1.0 : f32
    %t = memref.alloc() : memref<8x8xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%t : memref<8x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %one : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id, #t, #id], iterator_types = ["parallel", "parallel"]} ins(%t, %t : memref<8x8xf32>, memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %r = arith.addf %a, %b : f32
      linalg.yield %r : f32
    }
    memref.dealloc %t : memref<8x8xf32>
    return
  }
}
