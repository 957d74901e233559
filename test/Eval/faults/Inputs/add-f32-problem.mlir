// Element-wise sum of two 7x13 f32 matrices; the output is write-only.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.add", signature = "0000000000000000">} {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    return
  }
}
