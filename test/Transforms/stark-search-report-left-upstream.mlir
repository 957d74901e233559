// The model report lists every op of the program that is in no problem, so
// left to the upstream lowering, and why: the matmul is hot (top-k=2) and
// searched; the scaling by the argument %k is hot too, but stark-outline
// refuses it (it reads a scalar that is not a constant); the scaling of
// the matmul's result ranks third and is not hot; the gather's cost is
// unknown (its row comes from the data); the transpose of a constant
// returned as it is is compile-time work (the one the matmul reads goes
// into its problem, and so does the matmul's fill).
//
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=2" --stark-outline --stark-search="target=cpu budget=1 seed=1 trials=1 timing-trials=3 total-seconds=30 report=%t.json" -o /dev/null 2> /dev/null
// RUN: %python -c "import json, sys; r = json.load(open(sys.argv[1])); [print('problem', p['op']) for p in r['problems']]; [print('upstream', u['op'], u['loc'].split(':')[-2], u['why']) for u in r['left_upstream']]" %t.json > %t.txt
// RUN: FileCheck %s < %t.txt
// RUN: FileCheck %s --check-prefix=NONE < %t.txt

// CHECK-DAG: problem fused(linalg.transpose,linalg.matmul)
// NONE-NOT: upstream linalg.matmul
// NONE-NOT: upstream linalg.fill

func.func @model(%a: tensor<64x64xf32>, %ids: tensor<8xi32>, %table: tensor<16x4xf32>, %k: f32)
    -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<8x4xf32>, tensor<64x32xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<32x64xf32>
  %wt0 = tensor.empty() : tensor<64x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%wt0 : tensor<64x32xf32>) permutation = [1, 0]
  %e0 = tensor.empty() : tensor<64x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %m = linalg.matmul ins(%a, %wt : tensor<64x64xf32>, tensor<64x32xf32>) outs(%f0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e1 = tensor.empty() : tensor<64x32xf32>
  %two = arith.constant 2.0 : f32
  // CHECK-DAG: upstream linalg.generic [[# @LINE + 1]] not hot: rank 3 of 3, {{[0-9.]+}}% of the estimated time (outside top-k or under min-share)
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x32xf32>) outs(%e1 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %two : f32
    linalg.yield %y : f32
  } -> tensor<64x32xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  // CHECK-DAG: upstream linalg.generic [[# @LINE + 1]] cost unknown: body op 'tensor.extract' has no known cost
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi32>) outs(%e2 : tensor<8x4xf32>) {
  ^bb0(%i: i32, %o: f32):
    %row = arith.index_cast %i : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<16x4xf32>
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  %wt1 = tensor.empty() : tensor<64x32xf32>
  // CHECK-DAG: upstream linalg.transpose [[# @LINE + 1]] computed from constants alone (compile-time work)
  %wt2 = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%wt1 : tensor<64x32xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<64x64xf32>
  // CHECK-DAG: upstream linalg.generic [[# @LINE + 1]] hot, but not outlined (see stark-outline's remark)
  %ak = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x64xf32>) outs(%e3 : tensor<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %k : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %m, %s, %g, %wt2, %ak : tensor<64x32xf32>, tensor<64x32xf32>, tensor<8x4xf32>, tensor<64x32xf32>, tensor<64x64xf32>
}
