// Wrong: computes C correctly and calls libc's fork(); the child ends at
// once with _exit(0). A candidate that can fork can leave a process behind
// that outlives its evaluation.
module {
  llvm.func @fork() -> i32
  llvm.func @_exit(i32)
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    %pid = llvm.call @fork() : () -> i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %child = llvm.icmp "eq" %pid, %zero : i32
    scf.if %child {
      llvm.call @_exit(%zero) : (i32) -> ()
    }
    return
  }
}
