// 37x45 times 45x29 f32: no size divides a tile.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "37x45xf32,45x29xf32->37x29xf32", signature = "0">} {
  func.func @kernel(%a: memref<37x45xf32>, %b: memref<45x29xf32>, %c: memref<37x29xf32>) {
    linalg.matmul ins(%a, %b : memref<37x45xf32>, memref<45x29xf32>) outs(%c : memref<37x29xf32>)
    return
  }
}
