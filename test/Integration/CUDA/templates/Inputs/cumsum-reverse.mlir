module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "17x300xf32->17x300xf32", signature = "0">} {
  func.func @kernel(%x: memref<17x300xf32>, %y: memref<17x300xf32>) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<17x300xf32>) outs(%y : memref<17x300xf32>) {
    ^bb0(%a0: f32, %o0: f32):
      %j = linalg.index 1 : index
      %k = linalg.index 2 : index
      %z = arith.constant 0.0 : f32
      %le = arith.cmpi ule, %j, %k : index
      %v = arith.select %le, %a0, %z : f32
      %r = arith.addf %o0, %v : f32
      linalg.yield %r : f32
    }
    return
  }
}
