// Wrong: correct everywhere except C[5, 5], which gets 0/0 = NaN.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %c5 = arith.constant 5 : index
    %zero = arith.constant 0.0 : f32
    %nan = arith.divf %zero, %zero : f32
    memref.store %nan, %C[%c5, %c5] : memref<33x9xf32>
    return
  }
}
