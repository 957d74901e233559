module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.reduce", shapes = "300x1001xf32->300xf32", signature = "0">} {
  func.func @kernel(%x: memref<300x1001xf32>, %y: memref<300xf32>) {
    linalg.reduce ins(%x : memref<300x1001xf32>) outs(%y : memref<300xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return
  }
}
