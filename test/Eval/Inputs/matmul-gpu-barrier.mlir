// Parses and verifies, but the cpu lowering has no rule for gpu.barrier.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    gpu.barrier
    return
  }
}
