// Correct: the i8 matmul with every product and sum in i32.
module {
  func.func @kernel(%A: memref<8x64xi8>, %B: memref<64x8xi8>, %C: memref<8x8xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %init = memref.load %C[%i, %j] : memref<8x8xi32>
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (i32) {
          %a = memref.load %A[%i, %k] : memref<8x64xi8>
          %b = memref.load %B[%k, %j] : memref<64x8xi8>
          %a32 = arith.extsi %a : i8 to i32
          %b32 = arith.extsi %b : i8 to i32
          %p = arith.muli %a32, %b32 : i32
          %s = arith.addi %acc, %p : i32
          scf.yield %s : i32
        }
        memref.store %sum, %C[%i, %j] : memref<8x8xi32>
      }
    }
    return
  }
}
