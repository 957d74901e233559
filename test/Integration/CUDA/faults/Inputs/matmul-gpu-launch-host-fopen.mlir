// Bug (host code calling libc): ../../Inputs/matmul-gpu-launch.mlir (a
// correct gpu.launch) whose host function also writes "status: ok" to the
// file named by STARK_FAULT_FILE with fopen.
module {
  llvm.mlir.global internal constant @var("STARK_FAULT_FILE\00") {addr_space = 0 : i32} : !llvm.array<17 x i8>
  llvm.mlir.global internal constant @mode("w\00") {addr_space = 0 : i32} : !llvm.array<2 x i8>
  llvm.mlir.global internal constant @text("status: ok\0A\00") {addr_space = 0 : i32} : !llvm.array<12 x i8>
  llvm.func @getenv(!llvm.ptr) -> !llvm.ptr
  llvm.func @fopen(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.func @fputs(!llvm.ptr, !llvm.ptr) -> i32
  llvm.func @fclose(!llvm.ptr) -> i32
  func.func @kernel(%A: memref<255x129xf32>, %B: memref<129x191xf32>, %C: memref<255x191xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gx = arith.constant 12 : index
    %gy = arith.constant 16 : index
    %M = arith.constant 255 : index
    %N = arith.constant 191 : index
    %K = arith.constant 129 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%x = %gx, %y = %gy, %z = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %c16 : index
      %col = arith.addi %q0, %tx : index
      %rowOk = arith.cmpi slt, %row, %M : index
      %colOk = arith.cmpi slt, %col, %N : index
      %inside = arith.andi %rowOk, %colOk : i1
      scf.if %inside {
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero) -> (f32) {
          %a = memref.load %A[%row, %k] : memref<255x129xf32>
          %b = memref.load %B[%k, %col] : memref<129x191xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %C[%row, %col] : memref<255x191xf32>
      }
      gpu.terminator
    }
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
