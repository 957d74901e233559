// The model report says how many times the program runs each problem: two
// independent fill + matmul pairs of the same shapes are one problem run
// twice (the fill and the matmul of a pair feed one another: one run); the
// second pair's result feeds a matmul of other shapes, a problem run once.
//
// RUN: stark-opt %s --stark-hot-ops="profile=host top-k=0" --stark-outline="fuse=1" --stark-search="target=cpu budget=1 seed=1 trials=1 timing-trials=3 total-seconds=30 report=%t.json" -o /dev/null 2> /dev/null
// RUN: %python -c "import json, sys; [print(p['shapes'], 'runs', p['runs']) for p in json.load(open(sys.argv[1]))['problems']]" %t.json | FileCheck %s

// CHECK-DAG: 32x64xf32,64x48xf32->32x48xf32 runs 2
// CHECK-DAG: 32x48xf32,48x16xf32->32x16xf32 runs 1

func.func @model(%a: tensor<32x64xf32>, %b: tensor<64x48xf32>, %c: tensor<32x64xf32>,
                 %d: tensor<48x16xf32>) -> (tensor<32x48xf32>, tensor<32x48xf32>, tensor<32x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x48xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x48xf32>) -> tensor<32x48xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%f0 : tensor<32x48xf32>) -> tensor<32x48xf32>
  %e1 = tensor.empty() : tensor<32x48xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<32x48xf32>) -> tensor<32x48xf32>
  %1 = linalg.matmul ins(%c, %b : tensor<32x64xf32>, tensor<64x48xf32>) outs(%f1 : tensor<32x48xf32>) -> tensor<32x48xf32>
  %e2 = tensor.empty() : tensor<32x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %2 = linalg.matmul ins(%1, %d : tensor<32x48xf32>, tensor<48x16xf32>) outs(%f2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0, %1, %2 : tensor<32x48xf32>, tensor<32x48xf32>, tensor<32x16xf32>
}
