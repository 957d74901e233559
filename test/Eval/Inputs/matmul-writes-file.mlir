// Adversarial: a correct matmul that also opens a file and writes a verdict
// into it, through the C library (fopen, fputs, fclose). The cpu target's
// JIT would resolve those from the process; the guards refuse them.
// with_path.py puts the absolute path of the file, and its length with the
// terminating zero, in place of the two markers below.
module {
  llvm.mlir.global private constant @path("@PATH@\00") {addr_space = 0 : i32} : !llvm.array<@SIZE@ x i8>
  llvm.mlir.global private constant @mode("w\00") {addr_space = 0 : i32} : !llvm.array<2 x i8>
  llvm.mlir.global private constant @text("status: verified\0A\00") {addr_space = 0 : i32} : !llvm.array<18 x i8>
  llvm.func @fopen(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.func @fputs(!llvm.ptr, !llvm.ptr) -> i32
  llvm.func @fclose(!llvm.ptr) -> i32
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %path = llvm.mlir.addressof @path : !llvm.ptr
    %mode = llvm.mlir.addressof @mode : !llvm.ptr
    %text = llvm.mlir.addressof @text : !llvm.ptr
    %f = llvm.call @fopen(%path, %mode) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %0 = llvm.call @fputs(%text, %f) : (!llvm.ptr, !llvm.ptr) -> i32
    %1 = llvm.call @fclose(%f) : (!llvm.ptr) -> i32
    return
  }
}
