// Wrong: row maxima with arith.maxnumf, which skips NaN; the problem's
// arith.maximumf returns NaN for a row that holds one.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c33 = arith.constant 33 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %init = memref.load %Y[%i] : memref<8xf32>
      %m = scf.for %j = %c0 to %c33 step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %n = arith.maxnumf %acc, %x : f32
        scf.yield %n : f32
      }
      memref.store %m, %Y[%i] : memref<8xf32>
    }
    return
  }
}
