// x * sigmoid(x) * 1.702 + b[col], three element-wise ops, the middle one
// reading its input transposed.
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#col = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic)", shapes = "20x64xf32,64xf32->20x64xf32", signature = "00000000000000000000000000000014">} {
  func.func @kernel(%x: memref<20x64xf32>, %b: memref<64xf32>, %y: memref<20x64xf32>) {
    %one = arith.constant 1.0 : f32
    %t1 = memref.alloc() : memref<20x64xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<20x64xf32>) outs(%t1 : memref<20x64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      %e = math.exp %n : f32
      %d = arith.addf %one, %e : f32
      %s = arith.divf %one, %d : f32
      %r = arith.mulf %a, %s : f32
      linalg.yield %r : f32
    }
    %t2 = memref.alloc() : memref<64x20xf32>
    linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%t1 : memref<20x64xf32>) outs(%t2 : memref<64x20xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.constant 1.702 : f32
      %r = arith.mulf %a, %s : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#t, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%t2, %b : memref<64x20xf32>, memref<64xf32>) outs(%y : memref<20x64xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
    }
    memref.dealloc %t1 : memref<20x64xf32>
    memref.dealloc %t2 : memref<64x20xf32>
    return
  }
}
