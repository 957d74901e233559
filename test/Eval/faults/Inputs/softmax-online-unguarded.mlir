// Wrong: softmax in blocks of 8 with an online (max, sum) combination, but
// without the guards for masked values: a block whose eight elements are all
// -inf (a padding mask), or a -inf in the last column (a block of one), has
// max -inf, and exp(-inf - -inf) is NaN, so the whole row becomes NaN where
// the problem's softmax is finite. Right on every finite input.
module {
  // Combines a running (max, sum) with a block's (max, sum).
  func.func private @combine(%m: f32, %s: f32, %mb: f32, %sb: f32) -> (f32, f32) {
    %mn = arith.maxnumf %m, %mb : f32
    %d = arith.subf %m, %mn : f32
    %c = math.exp %d : f32
    %db = arith.subf %mb, %mn : f32
    %cb = math.exp %db : f32
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
        %sb = vector.reduction <add>, %ve : vector<8xf32> into f32
        %r:2 = func.call @combine(%m, %s, %mb, %sb) : (f32, f32, f32, f32) -> (f32, f32)
        scf.yield %r#0, %r#1 : f32, f32
      }
      %xt = memref.load %X[%i, %c32] : memref<8x33xf32>
      %mt = arith.maxnumf %ninf, %xt : f32
      %dt = arith.subf %xt, %mt : f32
      %et = math.exp %dt : f32
      %st = arith.addf %et, %zero : f32
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
