// Correct: k tiled by 4 into four partial sums, a remainder loop for k = 32, then the partial sums combined (a different summation order).
module {
  func.func @kernel(%X: memref<16x33xf32>, %Y: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c33 = arith.constant 33 : index
    %tail = arith.constant 32 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      %p:4 = scf.for %k = %c0 to %c32 step %c4
          iter_args(%a0 = %zero, %a1 = %zero, %a2 = %zero, %a3 = %zero) -> (f32, f32, f32, f32) {
        %k1 = arith.addi %k, %c1 : index
        %k2 = arith.addi %k, %c2 : index
        %k3 = arith.addi %k, %c3 : index
        %x0 = memref.load %X[%i, %k] : memref<16x33xf32>
        %x1 = memref.load %X[%i, %k1] : memref<16x33xf32>
        %x2 = memref.load %X[%i, %k2] : memref<16x33xf32>
        %x3 = memref.load %X[%i, %k3] : memref<16x33xf32>
        %s0 = arith.addf %a0, %x0 : f32
        %s1 = arith.addf %a1, %x1 : f32
        %s2 = arith.addf %a2, %x2 : f32
        %s3 = arith.addf %a3, %x3 : f32
        scf.yield %s0, %s1, %s2, %s3 : f32, f32, f32, f32
      }
      %t = scf.for %k = %tail to %c33 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %X[%i, %k] : memref<16x33xf32>
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      }
      %s01 = arith.addf %p#0, %p#1 : f32
      %s23 = arith.addf %p#2, %p#3 : f32
      %s = arith.addf %s01, %s23 : f32
      %st = arith.addf %s, %t : f32
      %y = memref.load %Y[%i] : memref<16xf32>
      %r = arith.addf %y, %st : f32
      memref.store %r, %Y[%i] : memref<16xf32>
    }
    return
  }
}
