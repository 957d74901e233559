// Crashes: stores through a pointer to address 16 (volatile, so the
// optimiser keeps it).
module {
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %addr = llvm.mlir.constant(16 : i64) : i64
    %p = llvm.inttoptr %addr : i64 to !llvm.ptr
    %v = llvm.mlir.constant(1.0 : f32) : f32
    llvm.store volatile %v, %p : f32, !llvm.ptr
    return
  }
}
