// A model's reply that calls a libc function (puts): the C it computes is
// right.
module {
  llvm.mlir.global internal constant @text("done\00") {addr_space = 0 : i32} : !llvm.array<5 x i8>
  llvm.func @puts(!llvm.ptr) -> i32
  func.func @kernel(%arg0: memref<16x8xf32>, %arg1: memref<8x4xf32>, %arg2: memref<16x4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %init = memref.load %arg2[%i, %j] : memref<16x4xf32>
        %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (f32) {
          %a = memref.load %arg0[%i, %k] : memref<16x8xf32>
          %b = memref.load %arg1[%k, %j] : memref<8x4xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %arg2[%i, %j] : memref<16x4xf32>
      }
    }
    %text = llvm.mlir.addressof @text : !llvm.ptr
    %r = llvm.call @puts(%text) : (!llvm.ptr) -> i32
    return
  }
}
