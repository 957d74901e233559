// Wrong: rows in tiles of 8 starting at 0, 8, 16, 24; row 32, the partial
// last tile of M = 33, is never computed.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c17 = arith.constant 17 : index
    %c32 = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i0 = %c0 to %c32 step %c8 {
      scf.for %di = %c0 to %c8 step %c1 {
        %i = arith.addi %i0, %di : index
        scf.for %j = %c0 to %c9 step %c1 {
          %sum = scf.for %k = %c0 to %c17 step %c1 iter_args(%acc = %zero) -> (f32) {
            %a = memref.load %A[%i, %k] : memref<33x17xf32>
            %b = memref.load %B[%k, %j] : memref<17x9xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %acc, %p : f32
            scf.yield %s : f32
          }
          memref.store %sum, %C[%i, %j] : memref<33x9xf32>
        }
      }
    }
    return
  }
}
