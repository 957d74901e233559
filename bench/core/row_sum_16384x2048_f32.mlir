// Sum over the rows of a 16384 x 2048 fp32 matrix, added to an initial
// vector (torch: init + x.sum(1)).
func.func @row_sum(%x: tensor<16384x2048xf32>, %init: tensor<16384xf32>) -> tensor<16384xf32> {
  %0 = linalg.reduce ins(%x : tensor<16384x2048xf32>) outs(%init : tensor<16384xf32>) dimensions = [1]
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<16384xf32>
}
