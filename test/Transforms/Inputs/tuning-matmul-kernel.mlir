module {
  func.func @kernel(%a: memref<16x8xf32>, %b: memref<8x4xf32>, %c: memref<16x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        scf.for %k = %c0 to %c8 step %c1 {
          %x = memref.load %a[%i, %k] : memref<16x8xf32>
          %y = memref.load %b[%k, %j] : memref<8x4xf32>
          %z = memref.load %c[%i, %j] : memref<16x4xf32>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %z, %m : f32
          memref.store %s, %c[%i, %j] : memref<16x4xf32>
        }
      }
    }
    return
  }
}
