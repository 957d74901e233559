module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.vecmat", shapes = "301xf32,301x517xf32->517xf32", signature = "0">} {
  func.func @kernel(%x: memref<301xf32>, %a: memref<301x517xf32>, %y: memref<517xf32>) {
    linalg.vecmat ins(%x, %a : memref<301xf32>, memref<301x517xf32>) outs(%y : memref<517xf32>)
    return
  }
}
