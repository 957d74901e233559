// Correct: the element-wise sum on vectors of 8 (columns 0-7) and the five
// remaining columns one by one.
module {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c13 = arith.constant 13 : index
    scf.for %i = %c0 to %c7 step %c1 {
      %a = vector.load %A[%i, %c0] : memref<7x13xf32>, vector<8xf32>
      %b = vector.load %B[%i, %c0] : memref<7x13xf32>, vector<8xf32>
      %s = arith.addf %a, %b : vector<8xf32>
      vector.store %s, %C[%i, %c0] : memref<7x13xf32>, vector<8xf32>
      scf.for %j = %c8 to %c13 step %c1 {
        %x = memref.load %A[%i, %j] : memref<7x13xf32>
        %y = memref.load %B[%i, %j] : memref<7x13xf32>
        %z = arith.addf %x, %y : f32
        memref.store %z, %C[%i, %j] : memref<7x13xf32>
      }
    }
    return
  }
}
