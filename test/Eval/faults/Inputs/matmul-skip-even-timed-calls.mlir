// Wrong: honest for its first five calls (the correctness trials); from the
// sixth call on, every call with an even number (counting from 0) returns
// at once without computing. With one warm-up and four timed runs the last
// call (number 9) is honest, so only a check of an earlier timed run sees
// it.
module {
  memref.global "private" @calls : memref<1xi32> = dense<0>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %five = arith.constant 5 : i32
    %calls = memref.get_global @calls : memref<1xi32>
    %n = memref.load %calls[%c0] : memref<1xi32>
    %n1 = arith.addi %n, %one : i32
    memref.store %n1, %calls[%c0] : memref<1xi32>
    %early = arith.cmpi slt, %n, %five : i32
    %bit = arith.andi %n, %one : i32
    %odd = arith.cmpi eq, %bit, %one : i32
    %honest = arith.ori %early, %odd : i1
    scf.if %honest {
      linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    }
    return
  }
}
