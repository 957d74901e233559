// A 256x256 f32 matmul problem; C is accumulated into, so it is read.
module {
  module @stark_problem_0 attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "256x256xf32,256x256xf32->256x256xf32", signature = "00">} {
    func.func @kernel(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
      linalg.matmul ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
      return
    }
  }
}
