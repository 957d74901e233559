module {
  func.func @kernel(%x: memref<4x1048576xf32>, %y: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 4 : index
    %n = arith.constant 1048576 : index
    %zero = arith.constant 0.0 : f64
    scf.for %i = %c0 to %c8 step %c1 {
      %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
        %v = memref.load %x[%i, %j] : memref<4x1048576xf32>
        %w = arith.extf %v : f32 to f64
        %a = arith.addf %acc, %w : f64
        scf.yield %a : f64
      }
      %r = arith.truncf %s : f64 to f32
      memref.store %r, %y[%i] : memref<4xf32>
    }
    return
  }
}
