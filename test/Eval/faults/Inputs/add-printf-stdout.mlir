// Wrong: computes C correctly and prints C[0, 0] to stdout with libc's
// printf. Host code may not call into libc.
module {
  llvm.mlir.global internal constant @fmt("speedup: %f\0A\00") {addr_space = 0 : i32} : !llvm.array<13 x i8>
  llvm.func @printf(!llvm.ptr, ...) -> i32
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    %fmt = llvm.mlir.addressof @fmt : !llvm.ptr
    %c0 = arith.constant 0 : index
    %v = memref.load %C[%c0, %c0] : memref<7x13xf32>
    %d = arith.extf %v : f32 to f64
    %r = llvm.call @printf(%fmt, %d) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32
    return
  }
}
