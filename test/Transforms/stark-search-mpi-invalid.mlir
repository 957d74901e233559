// mpi=1 needs an MPI job whose other ranks evaluate; alone, this process
// is the only rank.
// REQUIRES: mpi
// RUN: stark-opt %s --stark-search="target=cpu mpi=1 progress=0" -verify-diagnostics

// expected-error @below {{stark-search: mpi=1: no evaluation ranks: this process is the only MPI rank}}
module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.copy", shapes = "4xf32->4xf32", signature = "00">} {
    func.func @kernel(%a: memref<4xf32>, %b: memref<4xf32>) {
      linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
      return
    }
  }
}
