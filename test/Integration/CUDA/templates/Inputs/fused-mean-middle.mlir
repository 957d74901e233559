// mean over the middle dimension of 3x50x33: a sum, then a division.
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "fused(linalg.reduce,linalg.generic)", shapes = "3x50x33xf32->3x33xf32", signature = "00000000000000000000000000000012">} {
  func.func @kernel(%x: memref<3x50x33xf32>, %y: memref<3x33xf32>) {
    %zero = arith.constant 0.0 : f32
    %sum = memref.alloc() : memref<3x33xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<3x33xf32>)
    linalg.reduce ins(%x : memref<3x50x33xf32>) outs(%sum : memref<3x33xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %r = arith.addf %in, %init : f32
        linalg.yield %r : f32
      }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum : memref<3x33xf32>) outs(%y : memref<3x33xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.constant 50.0 : f32
      %r = arith.divf %a, %n : f32
      linalg.yield %r : f32
    }
    memref.dealloc %sum : memref<3x33xf32>
    return
  }
}
