// log_softmax over rows of 300: row max, sum of exp(x - max), x - max - log(sum).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic)", shapes = "7x300xf32->7x300xf32", signature = "00000000000000000000000000000011">} {
  func.func @kernel(%x: memref<7x300xf32>, %y: memref<7x300xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %max = memref.alloc() : memref<7xf32>
    linalg.fill ins(%ninf : f32) outs(%max : memref<7xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<7x300xf32>) outs(%max : memref<7xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.maximumf %a, %o : f32
      linalg.yield %r : f32
    }
    %sum = memref.alloc() : memref<7xf32>
    linalg.fill ins(%zero : f32) outs(%sum : memref<7xf32>)
    linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %max : memref<7x300xf32>, memref<7xf32>) outs(%sum : memref<7xf32>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %e = math.exp %d : f32
      %r = arith.addf %e, %o : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max, %sum : memref<7x300xf32>, memref<7xf32>, memref<7xf32>) outs(%y : memref<7x300xf32>) {
    ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
      %l = math.log %s : f32
      %d = arith.subf %a, %m : f32
      %r = arith.subf %d, %l : f32
      linalg.yield %r : f32
    }
    memref.dealloc %max : memref<7xf32>
    memref.dealloc %sum : memref<7xf32>
    return
  }
}
