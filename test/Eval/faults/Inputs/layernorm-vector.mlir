// Correct: layer normalisation one row at a time on vectors of 8: the sum
// and the sum of squared deviations in eight lanes, each reduced once, then
// the output with the problem's formula element by element.
module {
  func.func @kernel(%X: memref<8x64xf32>, %G: memref<64xf32>, %Bt: memref<64xf32>, %Y: memref<8x64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %n = arith.constant 6.400000e+01 : f32
    %eps = arith.constant 9.99999974E-6 : f32
    %vzero = arith.constant dense<0.0> : vector<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %vs = scf.for %j = %c0 to %c64 step %c8 iter_args(%acc = %vzero) -> (vector<8xf32>) {
        %v = vector.load %X[%i, %j] : memref<8x64xf32>, vector<8xf32>
        %a = arith.addf %acc, %v : vector<8xf32>
        scf.yield %a : vector<8xf32>
      }
      %sum = vector.reduction <add>, %vs : vector<8xf32> into f32
      %mean = arith.divf %sum, %n : f32
      %vmean = vector.broadcast %mean : f32 to vector<8xf32>
      %vq = scf.for %j = %c0 to %c64 step %c8 iter_args(%acc = %vzero) -> (vector<8xf32>) {
        %v = vector.load %X[%i, %j] : memref<8x64xf32>, vector<8xf32>
        %d = arith.subf %v, %vmean : vector<8xf32>
        %d2 = arith.mulf %d, %d : vector<8xf32>
        %a = arith.addf %acc, %d2 : vector<8xf32>
        scf.yield %a : vector<8xf32>
      }
      %q = vector.reduction <add>, %vq : vector<8xf32> into f32
      %var = arith.divf %q, %n : f32
      %ve = arith.addf %var, %eps : f32
      %rstd = math.rsqrt %ve : f32
      %vrstd = vector.broadcast %rstd : f32 to vector<8xf32>
      scf.for %j = %c0 to %c64 step %c8 {
        %v = vector.load %X[%i, %j] : memref<8x64xf32>, vector<8xf32>
        %g = vector.load %G[%j] : memref<64xf32>, vector<8xf32>
        %b = vector.load %Bt[%j] : memref<64xf32>, vector<8xf32>
        %d = arith.subf %v, %vmean : vector<8xf32>
        %t = arith.mulf %d, %vrstd : vector<8xf32>
        %tg = arith.mulf %t, %g : vector<8xf32>
        %y = arith.addf %tg, %b : vector<8xf32>
        vector.store %y, %Y[%i, %j] : memref<8x64xf32>, vector<8xf32>
      }
    }
    return
  }
}
