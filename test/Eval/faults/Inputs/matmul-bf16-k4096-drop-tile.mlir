// Wrong: accumulates in f32 but skips the 128-wide K tile k = 2048..2175 of
// 4096.
module {
  func.func @kernel(%A: memref<8x4096xbf16>, %B: memref<4096x8xbf16>, %C: memref<8x8xbf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %kend = arith.constant 4096 : index
    %skiplo = arith.constant 2048 : index
    %skiphi = arith.constant 2176 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %init = memref.load %C[%i, %j] : memref<8x8xbf16>
        %init32 = arith.extf %init : bf16 to f32
        %sum = scf.for %k = %c0 to %kend step %c1 iter_args(%acc = %zero) -> (f32) {
          %lo = arith.cmpi ult, %k, %skiplo : index
          %hi = arith.cmpi uge, %k, %skiphi : index
          %keep = arith.ori %lo, %hi : i1
          %next = scf.if %keep -> (f32) {
            %a = memref.load %A[%i, %k] : memref<8x4096xbf16>
            %b = memref.load %B[%k, %j] : memref<4096x8xbf16>
            %a32 = arith.extf %a : bf16 to f32
            %b32 = arith.extf %b : bf16 to f32
            %p = arith.mulf %a32, %b32 : f32
            %s = arith.addf %acc, %p : f32
            scf.yield %s : f32
          } else {
            scf.yield %acc : f32
          }
          scf.yield %next : f32
        }
        %total = arith.addf %init32, %sum : f32
        %r = arith.truncf %total : f32 to bf16
        memref.store %r, %C[%i, %j] : memref<8x8xbf16>
      }
    }
    return
  }
}
