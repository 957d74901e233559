// Wrong: computes C correctly and, from its sixth call on (after the
// correctness trials), also stores 1.0 one element past the end of C.
module {
  memref.global "private" @calls : memref<1xi32> = dense<0>
  func.func @kernel(%A: memref<7x13xf32>, %B: memref<7x13xf32>, %C: memref<7x13xf32>) {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %from = arith.constant 5 : i32
    %calls = memref.get_global @calls : memref<1xi32>
    %n = memref.load %calls[%c0] : memref<1xi32>
    %n1 = arith.addi %n, %one : i32
    memref.store %n1, %calls[%c0] : memref<1xi32>
    linalg.add ins(%A, %B : memref<7x13xf32>, memref<7x13xf32>) outs(%C : memref<7x13xf32>)
    %now = arith.cmpi sge, %n, %from : i32
    scf.if %now {
      %base = memref.extract_aligned_pointer_as_index %C : memref<7x13xf32> -> index
      %bytes = arith.constant 364 : index
      %addr = arith.addi %base, %bytes : index
      %addr64 = arith.index_cast %addr : index to i64
      %ptr = llvm.inttoptr %addr64 : i64 to !llvm.ptr
      %v = arith.constant 1.0 : f32
      llvm.store %v, %ptr : f32, !llvm.ptr
    }
    return
  }
}
