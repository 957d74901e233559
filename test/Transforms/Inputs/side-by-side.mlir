// Two matmuls large enough that the expert beats the upstream lowering on
// the cpu: stark-search-workers.mlir searches them side by side.
func.func @two(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>, %d: tensor<128x64xf32>, %e: tensor<128x64xf32>) -> (tensor<128x128xf32>, tensor<128x64xf32>) {
  %0 = linalg.matmul ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>)
                     outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  %1 = linalg.matmul ins(%a, %d : tensor<128x128xf32>, tensor<128x64xf32>)
                     outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %0, %1 : tensor<128x128xf32>, tensor<128x64xf32>
}
