// Wrong: computes C correctly, but from its sixth call on (after the
// correctness trials) it also overwrites A[0, 0] with 0.
module {
  memref.global "private" @calls : memref<1xi32> = dense<0>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %five = arith.constant 5 : i32
    %fzero = arith.constant 0.0 : f32
    %calls = memref.get_global @calls : memref<1xi32>
    %n = memref.load %calls[%c0] : memref<1xi32>
    %n1 = arith.addi %n, %one : i32
    memref.store %n1, %calls[%c0] : memref<1xi32>
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %late = arith.cmpi sge, %n, %five : i32
    scf.if %late {
      memref.store %fzero, %A[%c0, %c0] : memref<33x17xf32>
    }
    return
  }
}
