// Row softmax of an 8192 x 8192 fp32 matrix (torch: softmax(x, dim=1)).
func.func @softmax(%x: tensor<8192x8192xf32>, %o: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<8192x8192xf32>) outs(%o : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  return %0 : tensor<8192x8192xf32>
}
