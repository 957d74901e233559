// Wrong: flushes denormal inputs to zero before multiplying by 2^126; a
// denormal input has a normal (non-zero) result.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c33 = arith.constant 33 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c33 step %c1 {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %tiny = arith.constant 1.17549435e-38 : f32
        %zero = arith.constant 0.0 : f32
        %s = arith.constant 8.50705917e+37 : f32
        %ax = math.absf %x : f32
        %den = arith.cmpf olt, %ax, %tiny : f32
        %xf = arith.select %den, %zero, %x : f32
        %r = arith.mulf %xf, %s : f32
        memref.store %r, %Y[%i, %j] : memref<8x33xf32>
      }
    }
    return
  }
}
