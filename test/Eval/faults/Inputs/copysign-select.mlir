// Wrong: sign(x) as select(x < 0, -1, 1), which gives +1 for -0 (copysign gives
// -1) and +1 for NaN inputs of either sign.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c33 = arith.constant 33 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c33 step %c1 {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %zero = arith.constant 0.0 : f32
        %one = arith.constant 1.0 : f32
        %mone = arith.constant -1.0 : f32
        %neg = arith.cmpf olt, %x, %zero : f32
        %r = arith.select %neg, %mone, %one : f32
        memref.store %r, %Y[%i, %j] : memref<8x33xf32>
      }
    }
    return
  }
}
