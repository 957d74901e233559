module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "255x129xf32,129x191xf32->255x191xf32", signature = "5ab57177e5ab5717">} {
  func.func @kernel(%a: memref<255x129xf32>, %b: memref<129x191xf32>, %c: memref<255x191xf32>) {
    %init = arith.constant 0.0 : f32
    linalg.fill ins(%init : f32) outs(%c : memref<255x191xf32>)
    linalg.matmul ins(%a, %b : memref<255x129xf32>, memref<129x191xf32>) outs(%c : memref<255x191xf32>)
    return
  }
}
