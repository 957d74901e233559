// Wrong: ReLU as x * step(x) with step(x) = (x + |x|) / (2x). Right for every
// non-zero finite x; 0/0 makes it NaN at x = +-0, and inf/inf at x = +-inf.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c33 = arith.constant 33 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c33 step %c1 {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %ax = math.absf %x : f32
        %num = arith.addf %x, %ax : f32
        %den = arith.addf %x, %x : f32
        %step = arith.divf %num, %den : f32
        %r = arith.mulf %x, %step : f32
        memref.store %r, %Y[%i, %j] : memref<8x33xf32>
      }
    }
    return
  }
}
