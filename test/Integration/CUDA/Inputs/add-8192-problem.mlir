// Element-wise sum of two 8192x8192 f32 matrices (768 MB moved, memory-bound
// and exact): to time.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.add">} {
  func.func @kernel(%A: memref<8192x8192xf32>, %B: memref<8192x8192xf32>, %C: memref<8192x8192xf32>) {
    linalg.add ins(%A, %B : memref<8192x8192xf32>, memref<8192x8192xf32>) outs(%C : memref<8192x8192xf32>)
    return
  }
}
