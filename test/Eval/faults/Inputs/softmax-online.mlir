// Correct: softmax in blocks of 8 with an online (max, sum) combination. Masked
// (-inf) elements add 0 and a rescaling between equal maxima is 1, so masked
// blocks stay finite; a NaN or +inf in a row, or a row of -inf only, gives NaN
// as the problem does.
module {
  // Combines a running (max, sum) with a block's (max, sum).
  func.func private @combine(%m: f32, %s: f32, %mb: f32, %sb: f32) -> (f32, f32) {
    %mn = arith.maxnumf %m, %mb : f32
    %one = arith.constant 1.0 : f32
    // exp(m - mn) is 1 when m == mn, also for m = mn = -inf (-inf - -inf is
    // NaN).
    %d = arith.subf %m, %mn : f32
    %e = math.exp %d : f32
    %same = arith.cmpf oeq, %m, %mn : f32
    %c = arith.select %same, %one, %e : f32
    %db = arith.subf %mb, %mn : f32
    %eb = math.exp %db : f32
    %sameb = arith.cmpf oeq, %mb, %mn : f32
    %cb = arith.select %sameb, %one, %eb : f32
    %s1 = arith.mulf %s, %c : f32
    %s2 = arith.mulf %sb, %cb : f32
    %sn = arith.addf %s1, %s2 : f32
    return %mn, %sn : f32, f32
  }
  func.func @kernel(%X: memref<8x33xf32>, %Y: memref<8x33xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %vzero = arith.constant dense<0.0> : vector<8xf32>
    %vninf = arith.constant dense<0xFF800000> : vector<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ms:2 = scf.for %j = %c0 to %c32 step %c8 iter_args(%m = %ninf, %s = %zero) -> (f32, f32) {
        %v = vector.load %X[%i, %j] : memref<8x33xf32>, vector<8xf32>
        %mb = vector.reduction <maxnumf>, %v : vector<8xf32> into f32
        %vmb = vector.broadcast %mb : f32 to vector<8xf32>
        %vd = arith.subf %v, %vmb : vector<8xf32>
        %ve = math.exp %vd : vector<8xf32>
        // A masked (-inf) element adds 0, also when the whole block is masked.
        %masked = arith.cmpf oeq, %v, %vninf : vector<8xf32>
        %vt = arith.select %masked, %vzero, %ve : vector<8xi1>, vector<8xf32>
        %sb = vector.reduction <add>, %vt : vector<8xf32> into f32
        %r:2 = func.call @combine(%m, %s, %mb, %sb) : (f32, f32, f32, f32) -> (f32, f32)
        scf.yield %r#0, %r#1 : f32, f32
      }
      %xt = memref.load %X[%i, %c32] : memref<8x33xf32>
      %mt = arith.maxnumf %ninf, %xt : f32
      %dt = arith.subf %xt, %mt : f32
      %et = math.exp %dt : f32
      %maskedt = arith.cmpf oeq, %xt, %ninf : f32
      %st = arith.select %maskedt, %zero, %et : f32
      %f:2 = func.call @combine(%ms#0, %ms#1, %mt, %st) : (f32, f32, f32, f32) -> (f32, f32)
      %vmax = vector.broadcast %f#0 : f32 to vector<8xf32>
      %vsum = vector.broadcast %f#1 : f32 to vector<8xf32>
      scf.for %j = %c0 to %c32 step %c8 {
        %v = vector.load %X[%i, %j] : memref<8x33xf32>, vector<8xf32>
        %vd = arith.subf %v, %vmax : vector<8xf32>
        %ve = math.exp %vd : vector<8xf32>
        %vy = arith.divf %ve, %vsum : vector<8xf32>
        vector.store %vy, %Y[%i, %j] : memref<8x33xf32>, vector<8xf32>
      }
      %d2 = arith.subf %xt, %f#0 : f32
      %e2 = math.exp %d2 : f32
      %y2 = arith.divf %e2, %f#1 : f32
      memref.store %y2, %Y[%i, %c32] : memref<8x33xf32>
    }
    return
  }
}
