// fp32 matmul, 4096 x 4096 x 4096, accumulating into C (torch: addmm).
func.func @matmul(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>,
                  %c: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>)
                     outs(%c : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
