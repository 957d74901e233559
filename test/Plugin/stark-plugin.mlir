// stark's passes inside the stock mlir-opt, loaded as a pass plugin.
// REQUIRES: stark-plugin
// The stock mlir-opt builds its pass flags before plugins load, so a
// plugin's passes are named in --pass-pipeline (as upstream's own plugin
// example does); --help lists them once the plugin is loaded.
// RUN: mlir-opt %s --load-pass-plugin=%stark_lib_dir/StarkPlugin.so --pass-pipeline="builtin.module(stark-hot-ops{profile=h200})" 2>&1 | FileCheck %s
// RUN: mlir-opt %s --load-pass-plugin=%stark_lib_dir/StarkPlugin.so --pass-pipeline="builtin.module(stark-hot-ops{profile=a100 top-k=1})" 2>/dev/null | FileCheck %s --check-prefix=PIPE
// RUN: mlir-opt --load-pass-plugin=%stark_lib_dir/StarkPlugin.so --help | FileCheck %s --check-prefix=HELP
// Loaded as a dialect plugin too, the stock mlir-opt parses what the passes
// printed (#stark.cost).
// RUN: mlir-opt %s --load-pass-plugin=%stark_lib_dir/StarkPlugin.so --pass-pipeline="builtin.module(stark-hot-ops{profile=a100 top-k=1})" 2>/dev/null | mlir-opt --load-dialect-plugin=%stark_lib_dir/StarkPlugin.so | FileCheck %s --check-prefix=PIPE

// HELP: --stark-hot-ops
// HELP-SAME: Rank linalg ops by roofline cost

// CHECK: remark: hot op #1: contraction, 2.15 GFLOP, 16.8 MB, est. 32.05 us on h200
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.matmul {stark.cost = #stark.cost<bound = "compute", bytes = 16777216, op_class = "contraction", dtype = "f32", flops = 2147483648, profile = "h200", rank = 1
// PIPE-LABEL: func.func @matmul
// PIPE: linalg.matmul {stark.cost = #stark.cost<{{.*}}profile = "a100", rank = 1
func.func @matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                  %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
