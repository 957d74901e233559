// Row sums and column sums in one chain: no single set of reduced loops.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 3, num_outputs = 1, op = "fused(linalg.generic,linalg.generic,linalg.generic)", shapes = "16x8xf32->16x8xf32", signature = "00000000000000000000000000000021">} {
  func.func @kernel(%x: memref<16x8xf32>, %y: memref<16x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %rs = memref.alloc() : memref<16xf32>
    linalg.fill ins(%zero : f32) outs(%rs : memref<16xf32>)
    linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<16x8xf32>) outs(%rs : memref<16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %o : f32
      linalg.yield %r : f32
    }
    %cs = memref.alloc() : memref<8xf32>
    linalg.fill ins(%zero : f32) outs(%cs : memref<8xf32>)
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, #row], iterator_types = ["parallel", "reduction"]} ins(%x : memref<16x8xf32>) outs(%cs : memref<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %r = arith.addf %a, %o : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %rs, %cs : memref<16x8xf32>, memref<16xf32>, memref<8xf32>) outs(%y : memref<16x8xf32>) {
    ^bb0(%a: f32, %r: f32, %c: f32, %o: f32):
      %d = arith.subf %a, %r : f32
      %e = arith.subf %d, %c : f32
      linalg.yield %e : f32
    }
    memref.dealloc %rs : memref<16xf32>
    memref.dealloc %cs : memref<8xf32>
    return
  }
}
