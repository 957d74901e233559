// Wrong: computes C correctly, then calls libc's abort().
module {
  llvm.func @abort()
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    llvm.call @abort() : () -> ()
    return
  }
}
