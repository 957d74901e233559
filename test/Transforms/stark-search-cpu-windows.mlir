// Convolution and pooling on the host: the expert's window schedules
// (decomposed to 1-D forms and vectorised) are built, verified by the
// evaluator against the baseline and timed. Whether one wins depends on
// timing, so the checks are on what verified.
//
// RUN: stark-opt %s --stark-hot-ops="profile=h200 top-k=2" --stark-outline --stark-search="target=cpu progress=0 budget=2 trials=2 timing-trials=3 report=%t.json" --stark-substitute -o %t.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s < %t.mlir

// Both problems were searched (the report lists each problem's nodes
// before its op); the first candidate of each is the best guess of the
// window family and passes verification.
// REPORT: "strategy": "baseline"
// REPORT: "params": {
// REPORT-NEXT: "cache_tiles": "[0,0,0,0,0,0,0]",
// REPORT-NEXT: "contraction_lowering": "outerproduct",
// REPORT-NEXT: "reduction_lowering": "innerparallel",
// REPORT-NEXT: "register_tiles": "[1,1,{{[0-9]+}},{{[0-9]+}},1,0,{{[0-9]+}}]",
// REPORT-NEXT: "threads": "{{[0-9]+}}"
// REPORT: "plan": "new strategy from the baseline: cache tiles [0,0,0,0,0,0,0], vector tiles [1,1,{{.*}}], decomposed to 1-D windows
// REPORT: "status": "{{ok|slower}}",
// REPORT-NEXT: "strategy": "cpu-window-vectorize"
// REPORT: "op": "linalg.conv_2d_nhwc_hwcf"
// REPORT: "strategy": "baseline"
// REPORT: "plan": "new strategy from the baseline: {{.*}}decomposed to 1-D windows
// REPORT: "status": "{{ok|slower}}",
// REPORT-NEXT: "strategy": "cpu-window-vectorize"
// REPORT: "op": "linalg.pooling_nhwc_max"

// The output still verifies; each op is either replaced by a verified
// winner's call or left as it was.
// CHECK-LABEL: func.func @conv
// CHECK: {{linalg.conv_2d_nhwc_hwcf|call @stark_kernel_}}
// CHECK-LABEL: func.func @pool
// CHECK: {{linalg.pooling_nhwc_max|call @stark_kernel_}}

func.func @conv(%i: tensor<1x18x18x16xf32>, %w: tensor<3x3x16x32xf32>, %o: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%i, %w : tensor<1x18x18x16xf32>, tensor<3x3x16x32xf32>) outs(%o : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %0 : tensor<1x16x16x32xf32>
}

func.func @pool(%i: tensor<1x32x32x16xf32>, %k: tensor<2x2xf32>, %o: tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32> {
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%i, %k : tensor<1x32x32x16xf32>, tensor<2x2xf32>) outs(%o : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %0 : tensor<1x16x16x16xf32>
}
