module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.reduce", shapes = "4x1048576xf32->4xf32", signature = "0">} {
  func.func @kernel(%x: memref<4x1048576xf32>, %y: memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%y : memref<4xf32>)
    linalg.reduce ins(%x : memref<4x1048576xf32>) outs(%y : memref<4xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return
  }
}
