// Adversarial: a system call (getpid, x86-64 number 39) in inline assembly,
// which needs no symbol at all.
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %nr = llvm.mlir.constant(39 : i64) : i64
    %0 = llvm.inline_asm has_side_effects "syscall", "={rax},{rax},~{rcx},~{r11},~{memory}" %nr : (i64) -> i64
    return
  }
}
