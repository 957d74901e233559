// Correct: copies each 3-row block of A into a local buffer in two column
// halves. Each half is a strided, non-contiguous memref.copy, which lowers
// to a call of the memref runtime's memrefCopy.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c9 = arith.constant 9 : index
    %c17 = arith.constant 17 : index
    %c33 = arith.constant 33 : index
    %tile = memref.alloca() : memref<3x17xf32>
    %left = memref.subview %tile[0, 0] [3, 8] [1, 1] : memref<3x17xf32> to memref<3x8xf32, strided<[17, 1]>>
    %right = memref.subview %tile[0, 8] [3, 9] [1, 1] : memref<3x17xf32> to memref<3x9xf32, strided<[17, 1], offset: 8>>
    scf.for %ii = %c0 to %c33 step %c3 {
      %a0 = memref.subview %A[%ii, 0] [3, 8] [1, 1] : memref<33x17xf32> to memref<3x8xf32, strided<[17, 1], offset: ?>>
      %a1 = memref.subview %A[%ii, 8] [3, 9] [1, 1] : memref<33x17xf32> to memref<3x9xf32, strided<[17, 1], offset: ?>>
      memref.copy %a0, %left : memref<3x8xf32, strided<[17, 1], offset: ?>> to memref<3x8xf32, strided<[17, 1]>>
      memref.copy %a1, %right : memref<3x9xf32, strided<[17, 1], offset: ?>> to memref<3x9xf32, strided<[17, 1], offset: 8>>
      scf.for %i = %c0 to %c3 step %c1 {
        %gi = arith.addi %ii, %i : index
        scf.for %j = %c0 to %c9 step %c1 {
          %init = memref.load %C[%gi, %j] : memref<33x9xf32>
          %sum = scf.for %k = %c0 to %c17 step %c1 iter_args(%acc = %init) -> (f32) {
            %a = memref.load %tile[%i, %k] : memref<3x17xf32>
            %b = memref.load %B[%k, %j] : memref<17x9xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %acc, %p : f32
            scf.yield %s : f32
          }
          memref.store %sum, %C[%gi, %j] : memref<33x9xf32>
        }
      }
    }
    return
  }
}
