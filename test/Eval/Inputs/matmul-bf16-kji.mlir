// Too coarse: the k-j-i loop order, accumulating in bf16 in memory like the
// problem does (same per-element summation order).
module {
  func.func @kernel(%A: memref<8x16xbf16>, %B: memref<16x8xbf16>, %C: memref<8x8xbf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    scf.for %k = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %b = memref.load %B[%k, %j] : memref<16x8xbf16>
        scf.for %i = %c0 to %c8 step %c1 {
          %a = memref.load %A[%i, %k] : memref<8x16xbf16>
          %c = memref.load %C[%i, %j] : memref<8x8xbf16>
          %p = arith.mulf %a, %b : bf16
          %s = arith.addf %c, %p : bf16
          memref.store %s, %C[%i, %j] : memref<8x8xbf16>
        }
      }
    }
    return
  }
}
