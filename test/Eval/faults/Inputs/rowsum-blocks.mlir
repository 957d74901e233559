// Correct: row sums in blocks of 8 (four vectors summed lane-wise, then one
// vector.reduction), the last column and the initial value added after.
module {
  func.func @kernel(%X: memref<16x33xf32>, %Y: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %vzero = arith.constant dense<0.0> : vector<8xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %vs = scf.for %j = %c0 to %c32 step %c8 iter_args(%acc = %vzero) -> (vector<8xf32>) {
        %v = vector.load %X[%i, %j] : memref<16x33xf32>, vector<8xf32>
        %a = arith.addf %acc, %v : vector<8xf32>
        scf.yield %a : vector<8xf32>
      }
      %s = vector.reduction <add>, %vs : vector<8xf32> into f32
      %t = memref.load %X[%i, %c32] : memref<16x33xf32>
      %init = memref.load %Y[%i] : memref<16xf32>
      %st = arith.addf %s, %t : f32
      %out = arith.addf %init, %st : f32
      memref.store %out, %Y[%i] : memref<16xf32>
    }
    return
  }
}
