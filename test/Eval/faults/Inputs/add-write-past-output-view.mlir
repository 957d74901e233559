// Wrong: computes C correctly, then views C as one element longer
// (memref.reinterpret_cast to 92 elements) and stores 1.0 into the last.
module {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    %long = memref.reinterpret_cast %C to offset: [0], sizes: [92], strides: [1] : memref<7x13xf32> to memref<92xf32>
    %c91 = arith.constant 91 : index
    %v = arith.constant 1.0 : f32
    memref.store %v, %long[%c91] : memref<92xf32>
    return
  }
}
