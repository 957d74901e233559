module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.reduce", shapes = "513x130xf32->130xf32", signature = "0">} {
  func.func @kernel(%x: memref<513x130xf32>, %y: memref<130xf32>) {
    linalg.reduce ins(%x : memref<513x130xf32>) outs(%y : memref<130xf32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.minimumf %in, %acc : f32
        linalg.yield %s : f32
      }
    return
  }
}
