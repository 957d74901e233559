// Wrong: the reduction stops at k = 15, one product short.
module {
  func.func @kernel(%A: memref<8x16xf16>, %B: memref<16x8xf16>, %C: memref<8x8xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c15 = arith.constant 15 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %init = memref.load %C[%i, %j] : memref<8x8xf16>
        %sum = scf.for %k = %c0 to %c15 step %c1 iter_args(%acc = %init) -> (f16) {
          %a = memref.load %A[%i, %k] : memref<8x16xf16>
          %b = memref.load %B[%k, %j] : memref<16x8xf16>
          %p = arith.mulf %a, %b : f16
          %s = arith.addf %acc, %p : f16
          scf.yield %s : f16
        }
        memref.store %sum, %C[%i, %j] : memref<8x8xf16>
      }
    }
    return
  }
}
