// A GPU-dialect candidate with an outlined kernel: a gpu.module (its target
// is replaced by the device's) and a gpu.launch_func, one thread per row.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    gpu.func @rowsum(%A: memref<1023x997xf32>, %S: memref<1023xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %rows = arith.constant 1023 : index
      %cols = arith.constant 997 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %row = arith.addi %base, %tid : index
      %inside = arith.cmpi slt, %row, %rows : index
      scf.if %inside {
        %sum = scf.for %c = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (f32) {
          %v = memref.load %A[%row, %c] : memref<1023x997xf32>
          %s = arith.addf %acc, %v : f32
          scf.yield %s : f32
        }
        memref.store %sum, %S[%row] : memref<1023xf32>
      }
      gpu.return
    }
  }
  func.func @kernel(%A: memref<1023x997xf32>, %S: memref<1023xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@rowsum blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%A : memref<1023x997xf32>, %S : memref<1023xf32>)
    return
  }
}
