// f16 in and out. K = 6 keeps the sums of the evaluator's large-magnitude
// trial (|a|, |b| <= 100) inside the f16 range: with overflow, a baseline
// accumulating in f16 and a kernel accumulating in f32 may reach infinities
// of different signs.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "70x6xf16,6x90xf16->70x90xf16", signature = "0">} {
  func.func @kernel(%a: memref<70x6xf16>, %b: memref<6x90xf16>, %c: memref<70x90xf16>) {
    linalg.matmul ins(%a, %b : memref<70x6xf16>, memref<6x90xf16>) outs(%c : memref<70x90xf16>)
    return
  }
}
