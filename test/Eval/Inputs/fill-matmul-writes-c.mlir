// Correct for fill + matmul: each dot product starts from 0.0 in a register
// and C is only written.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %M = arith.constant 33 : index
    %N = arith.constant 9 : index
    %K = arith.constant 17 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %M step %c1 {
      scf.for %j = %c0 to %N step %c1 {
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero) -> (f32) {
          %a = memref.load %A[%i, %k] : memref<33x17xf32>
          %b = memref.load %B[%k, %j] : memref<17x9xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %C[%i, %j] : memref<33x9xf32>
      }
    }
    return
  }
}
