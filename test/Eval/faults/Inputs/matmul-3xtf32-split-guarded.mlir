// Correct: a 3xTF32-style matmul in f32 emulation. Each operand is split
// into hi (the top 10 mantissa bits, as tf32 keeps) and lo = x - hi, and
// a product is hi*hi + (hi*lo + lo*hi). Where that is not finite (an
// infinite or NaN operand: inf - inf makes lo NaN) the plain product a*b
// is used, so inf and NaN come out where the problem has them.
module {
  func.func private @split(%x: f32) -> (f32, f32) {
    %mask = arith.constant -8192 : i32
    %bits = arith.bitcast %x : f32 to i32
    %hib = arith.andi %bits, %mask : i32
    %hi = arith.bitcast %hib : i32 to f32
    %lo = arith.subf %x, %hi : f32
    return %hi, %lo : f32, f32
  }
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c9 = arith.constant 9 : index
    %c17 = arith.constant 17 : index
    %c33 = arith.constant 33 : index
    %inf = arith.constant 0x7F800000 : f32
    scf.for %i = %c0 to %c33 step %c1 {
      scf.for %j = %c0 to %c9 step %c1 {
        %init = memref.load %C[%i, %j] : memref<33x9xf32>
        %sum = scf.for %k = %c0 to %c17 step %c1 iter_args(%acc = %init) -> (f32) {
          %a = memref.load %A[%i, %k] : memref<33x17xf32>
          %b = memref.load %B[%k, %j] : memref<17x9xf32>
          %as:2 = func.call @split(%a) : (f32) -> (f32, f32)
          %bs:2 = func.call @split(%b) : (f32) -> (f32, f32)
          %hh = arith.mulf %as#0, %bs#0 : f32
          %hl = arith.mulf %as#0, %bs#1 : f32
          %lh = arith.mulf %as#1, %bs#0 : f32
          %small = arith.addf %hl, %lh : f32
          %p3 = arith.addf %hh, %small : f32
          %abs = math.absf %p3 : f32
          %finite = arith.cmpf olt, %abs, %inf : f32
          %ab = arith.mulf %a, %b : f32
          %p = arith.select %finite, %p3, %ab : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %C[%i, %j] : memref<33x9xf32>
      }
    }
    return
  }
}
