// A model's reply with a mutable global: a cache of C keyed by B[0, 0]
// (the attack of matmul-cache-keyed-on-b.mlir).
module {
  memref.global "private" @cache : memref<16x4xf32> = uninitialized
  memref.global "private" @key : memref<1xf32> = dense<0.0>
  func.func @kernel(%arg0: memref<16x8xf32>, %arg1: memref<8x4xf32>, %arg2: memref<16x4xf32>) {
    %z = arith.constant 0 : index
    %cache = memref.get_global @cache : memref<16x4xf32>
    %key = memref.get_global @key : memref<1xf32>
    %b0 = memref.load %arg1[%z, %z] : memref<8x4xf32>
    %k0 = memref.load %key[%z] : memref<1xf32>
    %hit = arith.cmpf oeq, %b0, %k0 : f32
    scf.if %hit {
      memref.copy %cache, %arg2 : memref<16x4xf32> to memref<16x4xf32>
    } else {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %init = memref.load %arg2[%i, %j] : memref<16x4xf32>
        %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (f32) {
          %a = memref.load %arg0[%i, %k] : memref<16x8xf32>
          %b = memref.load %arg1[%k, %j] : memref<8x4xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %arg2[%i, %j] : memref<16x4xf32>
      }
    }
      memref.copy %arg2, %cache : memref<16x4xf32> to memref<16x4xf32>
      memref.store %b0, %key[%z] : memref<1xf32>
    }
    return
  }
}
