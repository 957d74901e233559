// Wrong in one element per call: the element whose flat index is the bits of
// B[1, 1] modulo 297 is NaN where the reference is finite.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%C : memref<33x9xf32>)
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %key = memref.load %B[%c1, %c1] : memref<17x9xf32>
    %bits = arith.bitcast %key : f32 to i32
    %n = arith.constant 297 : i32
    %flat32 = arith.remui %bits, %n : i32
    %flat = arith.index_cast %flat32 : i32 to index
    %flatC = memref.collapse_shape %C [[0, 1]] : memref<33x9xf32> into memref<297xf32>
    %old = memref.load %flatC[%flat] : memref<297xf32>
    %new = arith.constant 0x7FC00000 : f32
    memref.store %new, %flatC[%flat] : memref<297xf32>
    return
  }
}
