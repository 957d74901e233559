// A 255x129 * 129x191 f32 matmul (odd sizes: every tail is partial).
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul">} {
  func.func @kernel(%A: memref<255x129xf32>, %B: memref<129x191xf32>, %C: memref<255x191xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.fill ins(%zero : f32) outs(%C : memref<255x191xf32>)
    linalg.matmul ins(%A, %B : memref<255x129xf32>, memref<129x191xf32>) outs(%C : memref<255x191xf32>)
    return
  }
}
