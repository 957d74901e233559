module {
  func.func @kernel(%x: memref<16x12xf32>, %s: memref<12xf32>, %w: memref<12x8xf32>, %out: memref<16x8xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %sum = scf.for %k = %c0 to %c12 step %c1 iter_args(%acc = %zero) -> (f32) {
          %xv = memref.load %x[%i, %k] : memref<16x12xf32>
          %sv = memref.load %s[%k] : memref<12xf32>
          %p = arith.mulf %xv, %sv : f32
          %r = arith.maximumf %p, %zero : f32
          %wv = memref.load %w[%k, %j] : memref<12x8xf32>
          %t = arith.mulf %r, %wv : f32
          %n = arith.addf %acc, %t : f32
          scf.yield %n : f32
        }
        memref.store %sum, %out[%i, %j] : memref<16x8xf32>
      }
    }
    return
  }
}
