module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "8x2052xf32,260x2052xf32->8x260xf32", signature = "0">} {
  func.func @kernel(%a: memref<8x2052xf32>, %b: memref<260x2052xf32>, %c: memref<8x260xf32>) {
    %cst = arith.constant 5.000000e-01 : f32
    linalg.fill ins(%cst : f32) outs(%c : memref<8x260xf32>)
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<8x2052xf32>, memref<260x2052xf32>) outs(%c : memref<8x260xf32>)
    return
  }
}
