// Correct: the clamp to [-60000, 60000] on vectors of 8, the last column alone.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c32 step %c8 {
        %v = vector.load %X[%i, %j] : memref<8x33xf32>, vector<8xf32>
        %vlo = arith.constant dense<-6.0e4> : vector<8xf32>
        %vhi = arith.constant dense<6.0e4> : vector<8xf32>
        %vm = arith.maximumf %v, %vlo : vector<8xf32>
        %rv = arith.minimumf %vm, %vhi : vector<8xf32>
        vector.store %rv, %Y[%i, %j] : memref<8x33xf32>, vector<8xf32>
      }
      %x = memref.load %X[%i, %c32] : memref<8x33xf32>
      %lo = arith.constant -6.0e4 : f32
      %hi = arith.constant 6.0e4 : f32
      %m = arith.maximumf %x, %lo : f32
      %r = arith.minimumf %m, %hi : f32
      memref.store %r, %Y[%i, %c32] : memref<8x33xf32>
    }
    return
  }
}
