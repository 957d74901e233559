// Wrong: computes C correctly, and overwrites B[0, 0] with 0 whenever A
// begins with the same four values as on the previous call: that is how
// the timed runs look (one input set, uploaded again before every run),
// never a correctness trial (new inputs every time).
module {
  memref.global "private" @last : memref<4xf32> = dense<0.0>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %true = arith.constant true
    %fzero = arith.constant 0.0 : f32
    %last = memref.get_global @last : memref<4xf32>
    linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    %same = scf.for %i = %c0 to %c4 step %c1 iter_args(%all = %true) -> (i1) {
      %a = memref.load %A[%c0, %i] : memref<33x17xf32>
      %l = memref.load %last[%i] : memref<4xf32>
      %e = arith.cmpf oeq, %a, %l : f32
      memref.store %a, %last[%i] : memref<4xf32>
      %both = arith.andi %all, %e : i1
      scf.yield %both : i1
    }
    scf.if %same {
      memref.store %fzero, %B[%c0, %c0] : memref<17x9xf32>
    }
    return
  }
}
