// KernelBench level 1, 6_Matmul_with_large_K_dimension_, at full size:
// M = 256, N = 256, K = 524288 (bench/problems/matmul_large_k.mlir is the
// same problem scaled down by 4).
func.func @main(%A: tensor<256x524288xf32>, %B: tensor<524288x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>) -> tensor<256x256xf32>
  %C = linalg.matmul ins(%A, %B : tensor<256x524288xf32>, tensor<524288x256xf32>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %C : tensor<256x256xf32>
}
