// Correct and within the allow-list: a matmul, then C = C + tanh(C) - tanh(C)
// through the math library (math-to-libm calls tanhf), a memref.global
// constant table, and a strided memref.copy (memrefCopy).
module {
  memref.global "private" constant @zero : memref<9xf32> = dense<0.0>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %zero = memref.get_global @zero : memref<9xf32>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%zero : memref<9xf32>) outs(%C : memref<33x9xf32>) {
    ^bb0(%z: f32, %c: f32):
      %e = math.tanh %c : f32
      %s = arith.addf %c, %e : f32
      %d = arith.subf %s, %e : f32
      %r = arith.addf %d, %z : f32
      linalg.yield %r : f32
    }
    %col = memref.subview %C[0, 0] [33, 1] [1, 1] : memref<33x9xf32> to memref<33xf32, strided<[9]>>
    %tmp = memref.alloc() : memref<33xf32>
    memref.copy %col, %tmp : memref<33xf32, strided<[9]>> to memref<33xf32>
    memref.copy %tmp, %col : memref<33xf32> to memref<33xf32, strided<[9]>>
    memref.dealloc %tmp : memref<33xf32>
    return
  }
}
