// A row sum that owns the 1.5 fill of its output (fill + reduction): the
// result is 1.5 + the sum, written without reading the output.
module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.reduce", shapes = "77x1000xf32->77xf32", signature = "0">} {
  func.func @kernel(%x: memref<77x1000xf32>, %y: memref<77xf32>) {
    %init = arith.constant 1.5 : f32
    linalg.fill ins(%init : f32) outs(%y : memref<77xf32>)
    linalg.reduce ins(%x : memref<77x1000xf32>) outs(%y : memref<77xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    return
  }
}
