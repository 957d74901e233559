// Correct: accumulates each dot product in f32 and rounds once to f16.
module {
  func.func @kernel(%A: memref<8x1024xf16>, %B: memref<1024x8xf16>, %C: memref<8x8xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %cK = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %init = memref.load %C[%i, %j] : memref<8x8xf16>
        %init32 = arith.extf %init : f16 to f32
        %sum = scf.for %k = %c0 to %cK step %c1 iter_args(%acc = %zero) -> (f32) {
          %a = memref.load %A[%i, %k] : memref<8x1024xf16>
          %b = memref.load %B[%k, %j] : memref<1024x8xf16>
          %a32 = arith.extf %a : f16 to f32
          %b32 = arith.extf %b : f16 to f32
          %p = arith.mulf %a32, %b32 : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %total = arith.addf %init32, %sum : f32
        %r = arith.truncf %total : f32 to f16
        memref.store %r, %C[%i, %j] : memref<8x8xf16>
      }
    }
    return
  }
}
