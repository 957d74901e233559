// Right: the program of matmul-bias-bf16-64x1024-problem.mlir with the
// products summed in f32, rounded to bf16, then the bias added in bf16.
module {
  func.func @kernel(%A: memref<64x1024xbf16>, %B: memref<1024x64xbf16>, %bias: memref<64xbf16>, %Y: memref<64x64xbf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cN = arith.constant 64 : index
    %cK = arith.constant 1024 : index
    %skiplo = arith.constant 1024 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %cN step %c1 {
      scf.for %j = %c0 to %cN step %c1 {
        %sum = scf.for %k = %c0 to %cK step %c1 iter_args(%acc = %zero) -> (f32) {
          %keep = arith.cmpi ult, %k, %skiplo : index
          %next = scf.if %keep -> (f32) {
            %a = memref.load %A[%i, %k] : memref<64x1024xbf16>
            %b = memref.load %B[%k, %j] : memref<1024x64xbf16>
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
        %t = arith.truncf %sum : f32 to bf16
        %bj = memref.load %bias[%j] : memref<64xbf16>
        %y = arith.addf %t, %bj : bf16
        memref.store %y, %Y[%i, %j] : memref<64x64xbf16>
      }
    }
    return
  }
}
