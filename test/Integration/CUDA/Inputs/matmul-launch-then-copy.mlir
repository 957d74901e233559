// matmul-gpu-launch.mlir's kernel, then a copy of C to host memory that the
// host code waits for: correct, but a host program that waits for the
// device while it runs, which cannot be captured as a CUDA graph.
module {
  func.func @kernel(%A: memref<255x129xf32>, %B: memref<129x191xf32>, %C: memref<255x191xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %gx = arith.constant 12 : index
    %gy = arith.constant 16 : index
    %M = arith.constant 255 : index
    %N = arith.constant 191 : index
    %K = arith.constant 129 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%x = %gx, %y = %gy, %z = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1) {
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %q0 = arith.muli %bx, %c16 : index
      %col = arith.addi %q0, %tx : index
      %rowOk = arith.cmpi slt, %row, %M : index
      %colOk = arith.cmpi slt, %col, %N : index
      %inside = arith.andi %rowOk, %colOk : i1
      scf.if %inside {
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero) -> (f32) {
          %a = memref.load %A[%row, %k] : memref<255x129xf32>
          %b = memref.load %B[%k, %col] : memref<129x191xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %C[%row, %col] : memref<255x191xf32>
      }
      gpu.terminator
    }
    %host = memref.alloc() : memref<255x191xf32>
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %host, %C : memref<255x191xf32>, memref<255x191xf32>
    gpu.wait [%t1]
    memref.dealloc %host : memref<255x191xf32>
    return
  }
}
