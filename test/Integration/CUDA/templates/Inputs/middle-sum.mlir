module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.reduce", shapes = "6x77x50xf32->6x50xf32", signature = "0">} {
  func.func @kernel(%x: memref<6x77x50xf32>, %y: memref<6x50xf32>) {
    linalg.reduce ins(%x : memref<6x77x50xf32>) outs(%y : memref<6x50xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return
  }
}
