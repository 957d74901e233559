// The reduction part of gemm + bias + sigmoid + sum: sum over columns of
// sigmoid(x + b[col]), into an output filled with 0.5.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic)", shapes = "37x129xf32,129xf32->37xf32", signature = "00000000000000000000000000000013">} {
  func.func @kernel(%x: memref<37x129xf32>, %b: memref<129xf32>, %y: memref<37xf32>) {
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %t = memref.alloc() : memref<37x129xf32>
    linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<37x129xf32>, memref<129xf32>) outs(%t : memref<37x129xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
    }
    %s = memref.alloc() : memref<37x129xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<37x129xf32>) outs(%s : memref<37x129xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      %e = math.exp %n : f32
      %d = arith.addf %one, %e : f32
      %r = arith.divf %one, %d : f32
      linalg.yield %r : f32
    }
    linalg.fill ins(%half : f32) outs(%y : memref<37xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%s : memref<37x129xf32>) outs(%y : memref<37xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %o : f32
      linalg.yield %r : f32
    }
    memref.dealloc %t : memref<37x129xf32>
    memref.dealloc %s : memref<37x129xf32>
    return
  }
}
