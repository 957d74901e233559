// Wrong: computes nothing and calls libc's exit(0): the process that runs
// the candidate ends "successfully" without a result.
module {
  llvm.func @exit(i32)
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %zero = llvm.mlir.constant(0 : i32) : i32
    llvm.call @exit(%zero) : (i32) -> ()
    return
  }
}
