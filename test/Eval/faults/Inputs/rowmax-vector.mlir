// Correct: row maxima with arith.maximumf (NaN-propagating, like the
// problem) over four vectors of 8 at once, a vector.reduction, then the
// last column and the initial value.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %v0 = vector.load %X[%i, %c0] : memref<8x33xf32>, vector<8xf32>
      %v1 = vector.load %X[%i, %c8] : memref<8x33xf32>, vector<8xf32>
      %v2 = vector.load %X[%i, %c16] : memref<8x33xf32>, vector<8xf32>
      %v3 = vector.load %X[%i, %c24] : memref<8x33xf32>, vector<8xf32>
      %m01 = arith.maximumf %v0, %v1 : vector<8xf32>
      %m23 = arith.maximumf %v2, %v3 : vector<8xf32>
      %m = arith.maximumf %m01, %m23 : vector<8xf32>
      %r = vector.reduction <maximumf>, %m : vector<8xf32> into f32
      %tail = memref.load %X[%i, %c32] : memref<8x33xf32>
      %init = memref.load %Y[%i] : memref<8xf32>
      %rt = arith.maximumf %r, %tail : f32
      %out = arith.maximumf %init, %rt : f32
      memref.store %out, %Y[%i] : memref<8xf32>
    }
    return
  }
}
