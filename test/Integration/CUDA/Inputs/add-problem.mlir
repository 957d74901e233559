// Element-wise sum of two 1023x517 f32 matrices; the output is write-only,
// so the evaluator prefills it with NaN.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.add">} {
  func.func @kernel(%A: memref<1023x517xf32>, %B: memref<1023x517xf32>, %C: memref<1023x517xf32>) {
    linalg.add ins(%A, %B : memref<1023x517xf32>, memref<1023x517xf32>) outs(%C : memref<1023x517xf32>)
    return
  }
}
