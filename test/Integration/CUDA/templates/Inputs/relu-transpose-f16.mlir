module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "33x65xf16->65x33xf16", signature = "0">} {
  func.func @kernel(%x: memref<33x65xf16>, %y: memref<65x33xf16>) {
    %zero = arith.constant 0.0 : f16
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<33x65xf16>) outs(%y : memref<65x33xf16>) {
      ^bb0(%in: f16, %out: f16):
        %c = arith.cmpf ogt, %in, %zero : f16
        %r = arith.select %c, %in, %zero : f16
        linalg.yield %r : f16
    }
    return
  }
}
