// A record of another device is a starting point, not an answer: it is
// judged first, as a child of the root, and the search goes on from there.
// `retune` searches even where this device has a record.
//
// RUN: %python %S/Inputs/tuning_db.py %t.db %S/Inputs/tuning-db-matmul.json --module-file KERNEL=%S/Inputs/tuning-matmul-kernel.mlir
// RUN: stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:elsewhere tuning-db=%t.db agent=replay transcript=%S/Inputs/search-wrong.json budget=3 trials=2 progress=0 report=%t.seed.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=SEED < %t.seed.json
// A fresh copy: the seed above may have won and been recorded for cpu:elsewhere.
// RUN: %python %S/Inputs/tuning_db.py %t.retune.db %S/Inputs/tuning-db-matmul.json --module-file KERNEL=%S/Inputs/tuning-matmul-kernel.mlir
// RUN: stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test retune=1 tuning-db=%t.retune.db agent=replay transcript=%S/Inputs/search-wrong.json budget=2 trials=2 progress=0 report=%t.retune.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=RETUNE < %t.retune.json

// Node 1 is the record of cpu:test, judged (and passed: it is correct;
// "slower" when screened out as slower than the baseline) before the
// transcript's two proposals.
// SEED:      "candidates": 3,
// SEED:      "author": "tuning-db",
// SEED-NEXT: "changed_part": "all",
// SEED-NEXT: "depth": 1,
// SEED-NEXT: "failed_children": {{[0-9]+}},
// SEED-NEXT: "id": 1,
// SEED-NEXT: "params": {
// SEED-NEXT:   "rows": "16"
// SEED-NEXT: },
// SEED-NEXT: "parent": 0,
// SEED-NEXT: "plan": "start from the winner recorded on cpu:test (2.00x there)",
// SEED:      "status": "{{ok|slower}}",
// SEED-NEXT: "strategy": "hand-written"
// SEED:      "author": "replay",
// SEED:      "id": 2,
// SEED:      "seeds": 1,
// SEED-NEXT: "shapes":
// SEED:      "source": "search",

// RETUNE:     "candidates": 2,
// RETUNE-NOT: "author": "tuning-db"
// RETUNE:     "source": "search",

func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                     outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
  return %0 : tensor<16x4xf32>
}
