// Wrong: computes C correctly and also stores 1.0 one element before the start
// of C.
module {
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    %base = memref.extract_aligned_pointer_as_index %C : memref<7x13xf32> -> index
    %bytes = arith.constant -4 : index
    %addr = arith.addi %base, %bytes : index
    %addr64 = arith.index_cast %addr : index to i64
    %ptr = llvm.inttoptr %addr64 : i64 to !llvm.ptr
    %v = arith.constant 1.0 : f32
    llvm.store %v, %ptr : f32, !llvm.ptr
    return
  }
}
