// Wrong: computes C correctly but then clobbers A[0, 0].
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %c0 = arith.constant 0 : index
    %v = arith.constant 42.0 : f32
    memref.store %v, %A[%c0, %c0] : memref<33x17xf32>
    return
  }
}
