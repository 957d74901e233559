// Wrong: 1/(x + 0.0): adding +0 turns -0 into +0, so 1/-0 gives +inf instead of
// -inf.
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
        %xz = arith.addf %x, %zero : f32
        %r = arith.divf %one, %xz : f32
        memref.store %r, %Y[%i, %j] : memref<8x33xf32>
      }
    }
    return
  }
}
