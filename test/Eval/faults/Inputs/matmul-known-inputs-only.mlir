// Wrong: honest only on the inputs of the evaluator's default seeds. It
// recognises them by the bits of A[0, 0] (the five correctness trials and
// the timing input of seed 0 for this problem's shapes) and writes zeros
// for any other input. A search whose debugger is shown the seeds can
// converge on such a kernel.
module {
  memref.global "private" constant @known : memref<6xi32> = dense<[-1086784747, -1081847852, 1147399533, 981654095, -1117551066, -1082668186]>
  func.func @kernel(%A: memref<33x17xf32>, %B: memref<17x9xf32>, %C: memref<33x9xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %false = arith.constant false
    %fzero = arith.constant 0.0 : f32
    %known = memref.get_global @known : memref<6xi32>
    %a = memref.load %A[%c0, %c0] : memref<33x17xf32>
    %bits = arith.bitcast %a : f32 to i32
    %seen = scf.for %i = %c0 to %c6 step %c1 iter_args(%any = %false) -> (i1) {
      %k = memref.load %known[%i] : memref<6xi32>
      %e = arith.cmpi eq, %bits, %k : i32
      %o = arith.ori %any, %e : i1
      scf.yield %o : i1
    }
    scf.if %seen {
      linalg.matmul ins(%A, %B : memref<33x17xf32>, memref<17x9xf32>) outs(%C : memref<33x9xf32>)
    } else {
      linalg.fill ins(%fzero : f32) outs(%C : memref<33x9xf32>)
    }
    return
  }
}
