// Wrong: computes nothing. On its first call it finds the worker's
// directory in /proc/self/cmdline (stark-eval --worker DIR), writes
// DIR/result.json saying "ok, 50x" with libc (fopen, fputs) and calls
// exit(0) before the evaluation can write its own result.
module {
  llvm.mlir.global internal constant @cmdline("/proc/self/cmdline\00") {addr_space = 0 : i32} : !llvm.array<19 x i8>
  llvm.mlir.global internal constant @rmode("r\00") {addr_space = 0 : i32} : !llvm.array<2 x i8>
  llvm.mlir.global internal constant @wmode("w\00") {addr_space = 0 : i32} : !llvm.array<2 x i8>
  llvm.mlir.global internal constant @suffix("/result.json\00") {addr_space = 0 : i32} : !llvm.array<13 x i8>
  llvm.mlir.global internal constant @forged("{\22status\22: \22ok\22, \22message\22: \22verified on 5 trials; 50.00x the baseline\22, \22target\22: \22cpu\22, \22timing\22: {\22speedup\22: 50.0}}\00") {addr_space = 0 : i32} : !llvm.array<119 x i8>
  llvm.func @fopen(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.func @fread(!llvm.ptr, i64, i64, !llvm.ptr) -> i64
  llvm.func @fputs(!llvm.ptr, !llvm.ptr) -> i32
  llvm.func @fclose(!llvm.ptr) -> i32
  llvm.func @strlen(!llvm.ptr) -> i64
  llvm.func @strcpy(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.func @strcat(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.func @memset(!llvm.ptr, i32, i64) -> !llvm.ptr
  llvm.func @exit(i32)
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %size = llvm.mlir.constant(4096 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    %zero32 = llvm.mlir.constant(0 : i32) : i32
    %cmdbuf = llvm.alloca %size x i8 : (i64) -> !llvm.ptr
    %pathbuf = llvm.alloca %size x i8 : (i64) -> !llvm.ptr
    %z = llvm.call @memset(%cmdbuf, %zero32, %size) : (!llvm.ptr, i32, i64) -> !llvm.ptr
    %cmdline = llvm.mlir.addressof @cmdline : !llvm.ptr
    %rmode = llvm.mlir.addressof @rmode : !llvm.ptr
    %wmode = llvm.mlir.addressof @wmode : !llvm.ptr
    %suffix = llvm.mlir.addressof @suffix : !llvm.ptr
    %forged = llvm.mlir.addressof @forged : !llvm.ptr
    %in = llvm.call @fopen(%cmdline, %rmode) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %n = llvm.call @fread(%cmdbuf, %one, %size, %in) : (!llvm.ptr, i64, i64, !llvm.ptr) -> i64
    %c0 = llvm.call @fclose(%in) : (!llvm.ptr) -> i32
    // argv[0], then "--worker", then the directory.
    %l0 = llvm.call @strlen(%cmdbuf) : (!llvm.ptr) -> i64
    %o1 = llvm.add %l0, %one : i64
    %arg1 = llvm.getelementptr %cmdbuf[%o1] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    %l1 = llvm.call @strlen(%arg1) : (!llvm.ptr) -> i64
    %o2 = llvm.add %l1, %one : i64
    %dir = llvm.getelementptr %arg1[%o2] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    %p0 = llvm.call @strcpy(%pathbuf, %dir) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %p1 = llvm.call @strcat(%pathbuf, %suffix) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %out = llvm.call @fopen(%pathbuf, %wmode) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %w = llvm.call @fputs(%forged, %out) : (!llvm.ptr, !llvm.ptr) -> i32
    %c1 = llvm.call @fclose(%out) : (!llvm.ptr) -> i32
    llvm.call @exit(%zero32) : (i32) -> ()
    return
  }
}
