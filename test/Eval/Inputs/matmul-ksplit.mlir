// Correct, with a different summation order: j is tiled by 4 (with a
// remainder loop for j = 8), and each dot product is summed as two halves,
// k in [0, 9) and [9, 17), added to C at the end. Differs from the
// baseline by rounding only.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c9 = arith.constant 9 : index
    %c17 = arith.constant 17 : index
    %c33 = arith.constant 33 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c33 step %c1 {
      scf.for %jj = %c0 to %c8 step %c4 {
        scf.for %jo = %c0 to %c4 step %c1 {
          %j = arith.addi %jj, %jo : index
          func.call @dot(%A, %B, %C, %i, %j) : (memref<33x17xf32>, memref<17x9xf32>, memref<33x9xf32>, index, index) -> ()
        }
      }
      scf.for %j = %c8 to %c9 step %c1 {
        func.call @dot(%A, %B, %C, %i, %j) : (memref<33x17xf32>, memref<17x9xf32>, memref<33x9xf32>, index, index) -> ()
      }
    }
    return
  }
  func.func private @dot(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>, %i: index, %j: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c17 = arith.constant 17 : index
    %zero = arith.constant 0.0 : f32
    %lo = scf.for %k = %c0 to %c9 step %c1 iter_args(%acc = %zero) -> (f32) {
      %a = memref.load %A[%i, %k] : memref<33x17xf32>
      %b = memref.load %B[%k, %j] : memref<17x9xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    %hi = scf.for %k = %c9 to %c17 step %c1 iter_args(%acc = %zero) -> (f32) {
      %a = memref.load %A[%i, %k] : memref<33x17xf32>
      %b = memref.load %B[%k, %j] : memref<17x9xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    %c = memref.load %C[%i, %j] : memref<33x9xf32>
    %d = arith.addf %lo, %hi : f32
    %r = arith.addf %c, %d : f32
    memref.store %r, %C[%i, %j] : memref<33x9xf32>
    return
  }
}
