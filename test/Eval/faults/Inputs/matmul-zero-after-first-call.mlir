// Wrong: right on its first call; every later call writes zeros.
module {
  memref.global "private" @calls : memref<1xi32> = dense<0>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %zero = arith.constant 0 : i32
    %fzero = arith.constant 0.0 : f32
    %calls = memref.get_global @calls : memref<1xi32>
    %n = memref.load %calls[%c0] : memref<1xi32>
    %n1 = arith.addi %n, %one : i32
    memref.store %n1, %calls[%c0] : memref<1xi32>
    %first = arith.cmpi eq, %n, %zero : i32
    scf.if %first {
      linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    } else {
      linalg.fill ins(%fzero : f32) outs(%C : memref<33x9xf32>)
    }
    return
  }
}
