module attributes {stark.problem = #stark.problem<entry = "kernel", fused_ops = 2, num_outputs = 1, op = "linalg.fill + linalg.matmul", shapes = "512x2048xf32,5632x2048xf32->512x5632xf32", signature = "0">} {
  func.func @kernel(%a: memref<512x2048xf32>, %b: memref<5632x2048xf32>, %c: memref<512x5632xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%zero : f32) outs(%c : memref<512x5632xf32>)
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<512x2048xf32>, memref<5632x2048xf32>) outs(%c : memref<512x5632xf32>)
    return
  }
}
