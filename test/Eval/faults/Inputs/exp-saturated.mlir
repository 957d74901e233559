// Wrong: exp(x) clamped to the largest finite f32; large inputs must give +inf.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c33 = arith.constant 33 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c33 step %c1 {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %e = math.exp %x : f32
        %max = arith.constant 3.40282347e+38 : f32
        %r = arith.minimumf %e, %max : f32
        memref.store %r, %Y[%i, %j] : memref<8x33xf32>
      }
    }
    return
  }
}
