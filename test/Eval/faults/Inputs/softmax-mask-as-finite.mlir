// Wrong: raises every input to at least -1e30 (arith.maxnumf) before the
// softmax "to avoid NaN", so a row that is entirely masked (-inf) comes out
// uniform (1/33) where the problem's softmax gives NaN, and a NaN input
// counts as masked instead of making its row NaN. Right on every finite
// input of moderate size and on partly masked rows.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c33 = arith.constant 33 : index
    %floor = arith.constant -1.0e30 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      %m = scf.for %j = %c0 to %c33 step %c1 iter_args(%acc = %ninf) -> (f32) {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %xf = arith.maxnumf %x, %floor : f32
        %n = arith.maxnumf %acc, %xf : f32
        scf.yield %n : f32
      }
      %s = scf.for %j = %c0 to %c33 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %xf = arith.maxnumf %x, %floor : f32
        %d = arith.subf %xf, %m : f32
        %e = math.exp %d : f32
        %n = arith.addf %acc, %e : f32
        scf.yield %n : f32
      }
      scf.for %j = %c0 to %c33 step %c1 {
        %x = memref.load %X[%i, %j] : memref<8x33xf32>
        %xf = arith.maxnumf %x, %floor : f32
        %d = arith.subf %xf, %m : f32
        %e = math.exp %d : f32
        %y = arith.divf %e, %s : f32
        memref.store %y, %Y[%i, %j] : memref<8x33xf32>
      }
    }
    return
  }
}
