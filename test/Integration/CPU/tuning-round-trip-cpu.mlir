// Tuning records on the host, end to end: a search records its winner; the
// second compile applies it without evaluating anything and gives the same
// IR; the exported spec gives the same IR again, through the transform
// interpreter; retune searches anyway; a record of another device seeds
// the search there; several processes record into one database at once.
//
// RUN: rm -f %t.db %t.concurrent.db
// RUN: stark-opt %s --stark-pipeline="target=cpu top-k=1 budget=3 seed=1 progress=0 tuning-db=%t.db report=%t.first.json" -o %t.first.mlir 2> %t.first.remarks
// RUN: FileCheck %s --check-prefix=FIRST < %t.first.remarks
// RUN: stark-tune list %t.db | FileCheck %s --check-prefix=LIST
//
// RUN: stark-opt %s --stark-pipeline="target=cpu top-k=1 budget=3 seed=1 progress=0 tuning-db=%t.db report=%t.second.json" -o %t.second.mlir 2> %t.second.remarks
// RUN: diff %t.first.mlir %t.second.mlir
// RUN: FileCheck %s --check-prefix=SECOND < %t.second.remarks
// RUN: FileCheck %s --check-prefix=SECOND-REPORT < %t.second.json
//
// RUN: stark-tune export -o %t.spec.mlir %t.db
// RUN: stark-opt %s --stark-apply-tuning-spec="spec=%t.spec.mlir" -o %t.spec-applied.mlir
// RUN: diff %t.first.mlir %t.spec-applied.mlir
//
// RUN: stark-opt %s --stark-pipeline="target=cpu top-k=1 budget=1 seed=2 progress=0 tuning-db=%t.db retune=1 report=%t.retune.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=RETUNE < %t.retune.json
//
// RUN: stark-opt %s --stark-pipeline="target=cpu top-k=1 budget=2 seed=1 progress=0 tuning-db=%t.db device=cpu:elsewhere report=%t.seed.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=SEED < %t.seed.json
//
// RUN: %python %S/Inputs/concurrent_writers.py stark-opt stark-tune %s %t.concurrent.db 4 | FileCheck %s --check-prefix=CONCURRENT

// FIRST: remark: stark-search: searched: {{[0-9.]+}}x faster on cpu: cpu-tile-vectorize
// FIRST: remark: stark-substitute: replaced by @stark_kernel_

// LIST: {{^[0-9a-f]+}} cpu:{{[^ ]+}} linalg.matmul 128x64xf32,64x96xf32->128x96xf32 {{[0-9.]+}}x cpu-tile-vectorize

// SECOND: remark: stark-search: searched: from tuning database: {{[0-9.]+}}x faster on cpu: cpu-tile-vectorize
// SECOND-REPORT: "candidates": 0
// SECOND-REPORT: "source": "tuning-db"

// RETUNE: "candidates": 1
// RETUNE: "source": "search"

// The record of this machine is node 1, the first child of the root.
// SEED:      "candidates": 2,
// SEED:      "author": "tuning-db",
// SEED:      "id": 1,
// SEED:      "parent": 0,
// SEED-NEXT: "plan": "start from the winner recorded on cpu:{{[^ ]+}} ({{[0-9.]+}}x there)",
// SEED:      "seeds": 1,

// CONCURRENT: OK: {{[1-4]}} winners, {{[1-4]}} records

func.func @mm(%a: tensor<128x64xf32>, %b: tensor<64x96xf32>, %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x96xf32>)
                     outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %0 : tensor<128x96xf32>
}
