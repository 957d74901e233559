// Wrong: the normaliser sums exp(x - max) over the first 999 of 1000
// columns only. Every element is off by about one part in a thousand of
// its own (small) value: within a single absolute bound set for long
// reductions, far outside a bound relative to the element.
module {
  func.func @kernel(%X: memref<8x1000xf32>, %Y: memref<8x1000xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c999 = arith.constant 999 : index
    %c1000 = arith.constant 1000 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      %m = scf.for %j = %c0 to %c1000 step %c1 iter_args(%acc = %ninf) -> (f32) {
        %x = memref.load %X[%i, %j] : memref<8x1000xf32>
        %n = arith.maxnumf %acc, %x : f32
        scf.yield %n : f32
      }
      %s = scf.for %j = %c0 to %c999 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %X[%i, %j] : memref<8x1000xf32>
        %d = arith.subf %x, %m : f32
        %e = math.exp %d : f32
        %n = arith.addf %acc, %e : f32
        scf.yield %n : f32
      }
      scf.for %j = %c0 to %c1000 step %c1 {
        %x = memref.load %X[%i, %j] : memref<8x1000xf32>
        %d = arith.subf %x, %m : f32
        %e = math.exp %d : f32
        %y = arith.divf %e, %s : f32
        memref.store %y, %Y[%i, %j] : memref<8x1000xf32>
      }
    }
    return
  }
}
