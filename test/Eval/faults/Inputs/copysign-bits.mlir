// Correct: copysign(1, x) on vectors of 8 as bit operations (the sign bit of x
// or-ed into 1.0), the last column alone.
module {
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c32 step %c8 {
        %v = vector.load %X[%i, %j] : memref<8x33xf32>, vector<8xf32>
        %vsign = arith.constant dense<-2147483648> : vector<8xi32>
        %vonebits = arith.constant dense<1065353216> : vector<8xi32>
        %vb = arith.bitcast %v : vector<8xf32> to vector<8xi32>
        %vs = arith.andi %vb, %vsign : vector<8xi32>
        %vo = arith.ori %vs, %vonebits : vector<8xi32>
        %rv = arith.bitcast %vo : vector<8xi32> to vector<8xf32>
        vector.store %rv, %Y[%i, %j] : memref<8x33xf32>, vector<8xf32>
      }
      %x = memref.load %X[%i, %c32] : memref<8x33xf32>
      %one = arith.constant 1.0 : f32
      %r = math.copysign %one, %x : f32
      memref.store %r, %Y[%i, %c32] : memref<8x33xf32>
    }
    return
  }
}
