// Wrong: the reduction stops at k = 15, one product short.
module {
  func.func @kernel(%A: memref<8x16xbf16>, %B: memref<16x8xbf16>, %C: memref<8x8xbf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c15 = arith.constant 15 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %init = memref.load %C[%i, %j] : memref<8x8xbf16>
        %sum = scf.for %k = %c0 to %c15 step %c1 iter_args(%acc = %init) -> (bf16) {
          %a = memref.load %A[%i, %k] : memref<8x16xbf16>
          %b = memref.load %B[%k, %j] : memref<16x8xbf16>
          %p = arith.mulf %a, %b : bf16
          %s = arith.addf %acc, %p : bf16
          scf.yield %s : bf16
        }
        memref.store %sum, %C[%i, %j] : memref<8x8xbf16>
      }
    }
    return
  }
}
