// Correct: 1/x on vectors of 8, the last column alone.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c32 step %c8 {
        %v = vector.load %X[%i, %j] : memref<8x33xf32>, vector<8xf32>
        %vone = arith.constant dense<1.0> : vector<8xf32>
        %rv = arith.divf %vone, %v : vector<8xf32>
        vector.store %rv, %Y[%i, %j] : memref<8x33xf32>, vector<8xf32>
      }
      %x = memref.load %X[%i, %c32] : memref<8x33xf32>
      %one = arith.constant 1.0 : f32
      %r = arith.divf %one, %x : f32
      memref.store %r, %Y[%i, %c32] : memref<8x33xf32>
    }
    return
  }
}
