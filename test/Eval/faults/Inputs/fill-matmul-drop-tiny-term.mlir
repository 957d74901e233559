// Wrong: drops the last product of a dot product when both of its factors
// are below 0.01 in magnitude. On inputs of size 1 that almost never
// happens; on the tiny distribution (1e-3) it always does, and each output
// (about 4e-6) loses a quarter of its value, but the error (1e-6) is far
// below an absolute f32 bound (3.1e-5 for K = 17).
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c16 = arith.constant 16 : index
    %c33 = arith.constant 33 : index
    %zero = arith.constant 0.0 : f32
    %small = arith.constant 0.01 : f32
    scf.for %i = %c0 to %c33 step %c1 {
      scf.for %j = %c0 to %c9 step %c1 {
        %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
          %a = memref.load %A[%i, %k] : memref<33x17xf32>
          %b = memref.load %B[%k, %j] : memref<17x9xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %a = memref.load %A[%i, %c16] : memref<33x17xf32>
        %b = memref.load %B[%c16, %j] : memref<17x9xf32>
        %aa = math.absf %a : f32
        %ab = math.absf %b : f32
        %ta = arith.cmpf olt, %aa, %small : f32
        %tb = arith.cmpf olt, %ab, %small : f32
        %tiny = arith.andi %ta, %tb : i1
        %p = arith.mulf %a, %b : f32
        %last = arith.select %tiny, %zero, %p : f32
        %r = arith.addf %sum, %last : f32
        memref.store %r, %C[%i, %j] : memref<33x9xf32>
      }
    }
    return
  }
}
