// Wrong: computes C correctly, but also opens the file named by the
// environment variable STARK_FAULT_FILE with libc's fopen and writes a verdict
// into it. Host code that can call fopen can write wherever results are kept.
module {
  llvm.mlir.global internal constant @var("STARK_FAULT_FILE\00") {addr_space = 0 : i32} : !llvm.array<17 x i8>
  llvm.mlir.global internal constant @mode("w\00") {addr_space = 0 : i32} : !llvm.array<2 x i8>
  llvm.mlir.global internal constant @text("status: ok\0A\00") {addr_space = 0 : i32} : !llvm.array<12 x i8>
  llvm.func @getenv(!llvm.ptr) -> !llvm.ptr
  llvm.func @fopen(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.func @fputs(!llvm.ptr, !llvm.ptr) -> i32
  llvm.func @fclose(!llvm.ptr) -> i32
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    %var = llvm.mlir.addressof @var : !llvm.ptr
    %mode = llvm.mlir.addressof @mode : !llvm.ptr
    %text = llvm.mlir.addressof @text : !llvm.ptr
    %path = llvm.call @getenv(%var) : (!llvm.ptr) -> !llvm.ptr
    %f = llvm.call @fopen(%path, %mode) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %r0 = llvm.call @fputs(%text, %f) : (!llvm.ptr, !llvm.ptr) -> i32
    %r1 = llvm.call @fclose(%f) : (!llvm.ptr) -> i32
    return
  }
}
