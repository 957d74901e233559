module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "128x300xf32->128xf32", signature = "0">} {
  func.func @kernel(%x: memref<128x300xf32>, %y: memref<128xf32>) {
    %scale = arith.constant 0.00333333341 : f32
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                    iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<128x300xf32>) outs(%y : memref<128xf32>) {
      ^bb0(%in: f32, %acc: f32):
        %v = arith.mulf %in, %scale : f32
        %s = arith.addf %acc, %v : f32
        linalg.yield %s : f32
    }
    return
  }
}
