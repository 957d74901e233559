module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.generic", shapes = "96x640xbf16,96x640xbf16->96x640xbf16", signature = "0">} {
  func.func @kernel(%x: memref<96x640xbf16>, %z: memref<96x640xbf16>, %y: memref<96x640xbf16>) {
    %zero = arith.constant 0.0 : bf16
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x, %z : memref<96x640xbf16>, memref<96x640xbf16>) outs(%y : memref<96x640xbf16>) {
      ^bb0(%a: bf16, %b: bf16, %out: bf16):
        %s = arith.addf %a, %b : bf16
        %r = arith.maximumf %s, %zero : bf16
        linalg.yield %r : bf16
    }
    return
  }
}
