// Does not parse: the matmul names an undefined value.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %X : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    return
  }
}
