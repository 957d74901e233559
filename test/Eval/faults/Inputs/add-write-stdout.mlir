// Wrong: computes C correctly and writes a verdict line to file
// descriptor 1 with libc's write.
module {
  llvm.mlir.global internal constant @text("status: ok\0A\00") {addr_space = 0 : i32} : !llvm.array<12 x i8>
  llvm.func @write(i32, !llvm.ptr, i64) -> i64
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    %text = llvm.mlir.addressof @text : !llvm.ptr
    %fd = llvm.mlir.constant(1 : i32) : i32
    %len = llvm.mlir.constant(11 : i64) : i64
    %r = llvm.call @write(%fd, %text, %len) : (i32, !llvm.ptr, i64) -> i64
    return
  }
}
