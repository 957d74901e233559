// Adversarial: the same escape spelled in the func dialect: a private
// declaration of POSIX write(2), called on standard error.
module {
  func.func private @write(i32, !llvm.ptr, i64) -> i64
  llvm.mlir.global private constant @text("verified\0A") {addr_space = 0 : i32} : !llvm.array<9 x i8>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %fd = arith.constant 2 : i32
    %n = arith.constant 9 : i64
    %text = llvm.mlir.addressof @text : !llvm.ptr
    %0 = func.call @write(%fd, %text, %n) : (i32, !llvm.ptr, i64) -> i64
    return
  }
}
