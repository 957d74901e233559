// Tuning records on the GPU, end to end: the search records its winners
// (keyed by cuda:<chip>:<device name>); the second compile applies them
// without evaluating anything and gives the same IR; the exported spec,
// applied with no CUDA device visible, gives the same IR again.
//
// RUN: rm -f %t.db
// RUN: stark-opt %s --stark-pipeline="target=cuda top-k=1 budget=3 seed=1 progress=0 tuning-db=%t.db" -o %t.first.mlir 2> %t.first.remarks
// RUN: FileCheck %s --check-prefix=FIRST < %t.first.remarks
// RUN: stark-tune list %t.db | FileCheck %s --check-prefix=LIST
//
// RUN: stark-opt %s --stark-pipeline="target=cuda top-k=1 budget=3 seed=1 progress=0 tuning-db=%t.db report=%t.second.json" -o %t.second.mlir 2> %t.second.remarks
// RUN: diff %t.first.mlir %t.second.mlir
// RUN: FileCheck %s --check-prefix=SECOND < %t.second.remarks
// RUN: FileCheck %s --check-prefix=SECOND-REPORT < %t.second.json
//
// RUN: stark-tune export -o %t.spec.mlir %t.db
// RUN: FileCheck %s --check-prefix=SPEC < %t.spec.mlir
// RUN: env CUDA_VISIBLE_DEVICES= stark-opt %s --stark-apply-tuning-spec="spec=%t.spec.mlir" -o %t.spec-applied.mlir
// RUN: diff %t.first.mlir %t.spec-applied.mlir

// FIRST: remark: stark-search: searched: {{[0-9.]+}}x faster on cuda:
// FIRST: remark: stark-substitute: replaced by @stark_kernel_

// LIST: {{^[0-9a-f]+}} cuda:sm_{{[0-9]+a?}}:{{.+}} linalg.matmul 512x256xf32,256x384xf32->512x384xf32 {{[0-9.]+}}x

// SECOND: remark: stark-search: searched: from tuning database: {{[0-9.]+}}x faster on cuda:
// SECOND-REPORT: "candidates": 0
// SECOND-REPORT: "source": "tuning-db"

// SPEC: stark.tuning_spec = {device = "cuda:sm_
// SPEC: transform.stark.apply_winner

func.func @mm(%a: tensor<512x256xf32>, %b: tensor<256x384xf32>, %c: tensor<512x384xf32>) -> tensor<512x384xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<512x256xf32>, tensor<256x384xf32>)
                     outs(%c : tensor<512x384xf32>) -> tensor<512x384xf32>
  return %0 : tensor<512x384xf32>
}
