// Wrong: accumulates in f32 but stops at k = 1016, dropping the last 8 of 1024
// products.
module {
  func.func @kernel(%A: memref<8x1024xf16>, %B: memref<1024x8xf16>, %C: memref<8x8xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %kend = arith.constant 1016 : index
    %skiplo = arith.constant 1016 : index
    %skiphi = arith.constant 1016 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %init = memref.load %C[%i, %j] : memref<8x8xf16>
        %init32 = arith.extf %init : f16 to f32
        %sum = scf.for %k = %c0 to %kend step %c1 iter_args(%acc = %zero) -> (f32) {
          %lo = arith.cmpi ult, %k, %skiplo : index
          %hi = arith.cmpi uge, %k, %skiphi : index
          %keep = arith.ori %lo, %hi : i1
          %next = scf.if %keep -> (f32) {
            %a = memref.load %A[%i, %k] : memref<8x1024xf16>
            %b = memref.load %B[%k, %j] : memref<1024x8xf16>
            %a32 = arith.extf %a : f16 to f32
            %b32 = arith.extf %b : f16 to f32
            %p = arith.mulf %a32, %b32 : f32
            %s = arith.addf %acc, %p : f32
            scf.yield %s : f32
          } else {
            scf.yield %acc : f32
          }
          scf.yield %next : f32
        }
        %total = arith.addf %init32, %sum : f32
        %r = arith.truncf %total : f32 to f16
        memref.store %r, %C[%i, %j] : memref<8x8xf16>
      }
    }
    return
  }
}
