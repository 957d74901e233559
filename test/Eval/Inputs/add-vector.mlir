// Correct: each row as a vector<13xf32>.
module {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    scf.for %i = %c0 to %c7 step %c1 {
      %a = vector.load %A[%i, %c0] : memref<7x13xf32>, vector<13xf32>
      %b = vector.load %B[%i, %c0] : memref<7x13xf32>, vector<13xf32>
      %s = arith.addf %a, %b : vector<13xf32>
      vector.store %s, %C[%i, %c0] : memref<7x13xf32>, vector<13xf32>
    }
    return
  }
}
