// Wrong: the problem fills C with 0 before the matmul (C is write-only),
// but this kernel accumulates into the old contents of C, reading a NaN
// there as 0. With C prefilled with NaN it is right; with any finite
// contents it adds them to the result.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c17 = arith.constant 17 : index
    %c33 = arith.constant 33 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c33 step %c1 {
      scf.for %j = %c0 to %c9 step %c1 {
        %old = memref.load %C[%i, %j] : memref<33x9xf32>
        %isnan = arith.cmpf uno, %old, %old : f32
        %init = arith.select %isnan, %zero, %old : f32
        %sum = scf.for %k = %c0 to %c17 step %c1 iter_args(%acc = %init) -> (f32) {
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
