// Two adaptive average pools as torch-mlir writes them (sums only; the
// divide is a separate generic and not at issue): 8 x 8 to 4 x 4, then
// 4 x 4 to 1 x 1, at batch 2.
func.func @forward(%x: tensor<2x3x8x8xf32>) -> (tensor<2x3x4x4xf32>, tensor<2x3x1x1xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %wina = tensor.empty() : tensor<2x2xf32>
  %ea = tensor.empty() : tensor<2x3x4x4xf32>
  %acca = linalg.fill ins(%zero : f32) outs(%ea : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  %ca_3 = arith.constant 3 : index
  %ca_4 = arith.constant 4 : index
  %ca_7 = arith.constant 7 : index
  %ca_8 = arith.constant 8 : index
  %suma = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%wina : tensor<2x2xf32>) outs(%acca : tensor<2x3x4x4xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %one = arith.constant 1 : index
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %o2 = linalg.index 2 : index
    %o3 = linalg.index 3 : index
    %k2 = linalg.index 4 : index
    %k3 = linalg.index 5 : index
    %st2 = arith.muli %o2, %ca_8 : index
    %s2 = arith.divui %st2, %ca_4 : index
    %i2 = arith.addi %s2, %k2 : index
    %ob2 = arith.addi %o2, %one : index
    %en2 = arith.muli %ob2, %ca_8 : index
    %enr2 = arith.addi %en2, %ca_3 : index
    %e2 = arith.divui %enr2, %ca_4 : index
    %in2ok = arith.cmpi ult, %i2, %e2 : index
    %ic2 = arith.minui %i2, %ca_7 : index
    %st3 = arith.muli %o3, %ca_8 : index
    %s3 = arith.divui %st3, %ca_4 : index
    %i3 = arith.addi %s3, %k3 : index
    %ob3 = arith.addi %o3, %one : index
    %en3 = arith.muli %ob3, %ca_8 : index
    %enr3 = arith.addi %en3, %ca_3 : index
    %e3 = arith.divui %enr3, %ca_4 : index
    %in3ok = arith.cmpi ult, %i3, %e3 : index
    %ic3 = arith.minui %i3, %ca_7 : index
    %v = tensor.extract %x[%n, %c, %ic2, %ic3] : tensor<2x3x8x8xf32>
    %ok = arith.andi %in2ok, %in3ok : i1
    %z = arith.select %ok, %v, %zero : f32
    %r = arith.addf %out, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4x4xf32>
  %winb = tensor.empty() : tensor<4x4xf32>
  %eb = tensor.empty() : tensor<2x3x1x1xf32>
  %accb = linalg.fill ins(%zero : f32) outs(%eb : tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32>
  %cb_0 = arith.constant 0 : index
  %cb_1 = arith.constant 1 : index
  %cb_3 = arith.constant 3 : index
  %cb_4 = arith.constant 4 : index
  %sumb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%winb : tensor<4x4xf32>) outs(%accb : tensor<2x3x1x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %one = arith.constant 1 : index
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %o2 = linalg.index 2 : index
    %o3 = linalg.index 3 : index
    %k2 = linalg.index 4 : index
    %k3 = linalg.index 5 : index
    %st2 = arith.muli %o2, %cb_4 : index
    %s2 = arith.divui %st2, %cb_1 : index
    %i2 = arith.addi %s2, %k2 : index
    %ob2 = arith.addi %o2, %one : index
    %en2 = arith.muli %ob2, %cb_4 : index
    %enr2 = arith.addi %en2, %cb_0 : index
    %e2 = arith.divui %enr2, %cb_1 : index
    %in2ok = arith.cmpi ult, %i2, %e2 : index
    %ic2 = arith.minui %i2, %cb_3 : index
    %st3 = arith.muli %o3, %cb_4 : index
    %s3 = arith.divui %st3, %cb_1 : index
    %i3 = arith.addi %s3, %k3 : index
    %ob3 = arith.addi %o3, %one : index
    %en3 = arith.muli %ob3, %cb_4 : index
    %enr3 = arith.addi %en3, %cb_0 : index
    %e3 = arith.divui %enr3, %cb_1 : index
    %in3ok = arith.cmpi ult, %i3, %e3 : index
    %ic3 = arith.minui %i3, %cb_3 : index
    %v = tensor.extract %suma[%n, %c, %ic2, %ic3] : tensor<2x3x4x4xf32>
    %ok = arith.andi %in2ok, %in3ok : i1
    %z = arith.select %ok, %v, %zero : f32
    %r = arith.addf %out, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x3x1x1xf32>
  return %suma, %sumb : tensor<2x3x4x4xf32>, tensor<2x3x1x1xf32>
}
