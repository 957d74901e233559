// Wrong: accumulates the products in i16, which wraps once a dot product
// leaves [-32768, 32767] (i8 inputs of size 100: products up to 1e4).
module {
  func.func @kernel(%A: memref<8x64xi8>, %B: memref<64x8xi8>, %C: memref<8x8xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0 : i16
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (i16) {
          %a = memref.load %A[%i, %k] : memref<8x64xi8>
          %b = memref.load %B[%k, %j] : memref<64x8xi8>
          %a16 = arith.extsi %a : i8 to i16
          %b16 = arith.extsi %b : i8 to i16
          %p = arith.muli %a16, %b16 : i16
          %s = arith.addi %acc, %p : i16
          scf.yield %s : i16
        }
        %init = memref.load %C[%i, %j] : memref<8x8xi32>
        %s32 = arith.extsi %sum : i16 to i32
        %r = arith.addi %init, %s32 : i32
        memref.store %r, %C[%i, %j] : memref<8x8xi32>
      }
    }
    return
  }
}
