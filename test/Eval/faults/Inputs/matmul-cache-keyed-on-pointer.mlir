// Wrong: caches C in a mutable global, keyed by the addresses of A and B
// (as a runtime might key a cache on a weight's buffer). A call with the
// same buffers copies the cached C out without reading them, so new
// contents in the same buffers get the old answer. If every correctness
// trial gets fresh buffers it misses there; timed runs reuse one set of
// buffers and hit.
module {
  memref.global "private" @cache : memref<33x9xf32> = uninitialized
  memref.global "private" @key : memref<2xindex> = dense<0>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cache = memref.get_global @cache : memref<33x9xf32>
    %key = memref.get_global @key : memref<2xindex>
    %pa = memref.extract_aligned_pointer_as_index %A : memref<33x17xf32> -> index
    %pb = memref.extract_aligned_pointer_as_index %B : memref<17x9xf32> -> index
    %ka = memref.load %key[%c0] : memref<2xindex>
    %kb = memref.load %key[%c1] : memref<2xindex>
    %ea = arith.cmpi eq, %pa, %ka : index
    %eb = arith.cmpi eq, %pb, %kb : index
    %hit = arith.andi %ea, %eb : i1
    scf.if %hit {
      memref.copy %cache, %C : memref<33x9xf32> to memref<33x9xf32>
    } else {
      linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
      memref.copy %C, %cache : memref<33x9xf32> to memref<33x9xf32>
      memref.store %pa, %key[%c0] : memref<2xindex>
      memref.store %pb, %key[%c1] : memref<2xindex>
    }
    return
  }
}
