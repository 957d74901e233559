// The LLaMA block's gate projection as a kernel problem (512 x 5632 x 2048,
// B N x K, f32): what bench/kernels/eval_phases.sh judges by default.
module attributes {stark.problem = #stark.problem<entry = "kernel", num_outputs = 1, op = "linalg.matmul", shapes = "512x2048xf32,5632x2048xf32->512x5632xf32", signature = "0">} {
  func.func @kernel(%a: memref<512x2048xf32>, %b: memref<5632x2048xf32>, %c: memref<512x5632xf32>) {
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<512x2048xf32>, memref<5632x2048xf32>) outs(%c : memref<512x5632xf32>)
    return
  }
}
