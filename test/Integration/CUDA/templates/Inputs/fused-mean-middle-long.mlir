// mean over the middle dimension of 4x300x65 (rows of 300 elements 65 apart): a sum, then a division.
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.reduce,linalg.generic)", shapes = "4x300x65xf32->4x65xf32", signature = "00000000000000000000000000000013">} {
  func.func @kernel(%x: memref<4x300x65xf32>, %y: memref<4x65xf32>) {
    %zero = arith.constant 0.0 : f32
    %sum = memref.alloc() : memref<4x65xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<4x65xf32>)
    linalg.reduce ins(%x : memref<4x300x65xf32>) outs(%sum : memref<4x65xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %r = arith.addf %in, %init : f32
        linalg.yield %r : f32
      }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum : memref<4x65xf32>) outs(%y : memref<4x65xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.constant 300.0 : f32
      %r = arith.divf %a, %n : f32
      linalg.yield %r : f32
    }
    memref.dealloc %sum : memref<4x65xf32>
    return
  }
}
