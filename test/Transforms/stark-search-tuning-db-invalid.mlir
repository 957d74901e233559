// A tuning database that is not one, or not whole, is an error naming the
// file and the line; nothing from it is applied and nothing is searched.
//
// RUN: printf 'name,value\n1,2\n' > %t.foreign
// RUN: stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test tuning-db=%t.foreign progress=0" -verify-diagnostics
// The file is left as it was.
// RUN: FileCheck %s --check-prefix=FOREIGN < %t.foreign
// FOREIGN:      {{^}}name,value
// FOREIGN-NEXT: {{^}}1,2
// FOREIGN-NOT:  {{.}}
//
// RUN: %python %S/Inputs/tuning_db.py %t.truncated %S/Inputs/tuning-db-matmul.json --module-file KERNEL=%S/Inputs/tuning-matmul-kernel.mlir --no-newline
// RUN: not stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test tuning-db=%t.truncated progress=0" 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error: stark-search: tuning database: '{{.*}}.truncated': line 2: truncated record (the file does not end in a newline)
//
// RUN: %python %S/Inputs/tuning_db.py %t.checksum %S/Inputs/tuning-db-matmul.json --module-file KERNEL=%S/Inputs/tuning-matmul-kernel.mlir --bad-checksum
// RUN: not stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test tuning-db=%t.checksum progress=0" 2>&1 | FileCheck %s --check-prefix=CHECKSUM
// CHECKSUM: error: stark-search: tuning database: '{{.*}}.checksum': line 2: corrupt record: checksum mismatch (the record says 00000000000000000000000000000000, its contents hash to {{[0-9a-f]+}})
//
// RUN: printf '{"format":"stark-tuning-db","version":1}\n{"signature": "c592\n' > %t.corrupt
// RUN: not stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test tuning-db=%t.corrupt progress=0" 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: error: stark-search: tuning database: '{{.*}}.corrupt': line 2: corrupt record: {{.+}}
//
// RUN: printf '{"format":"stark-tuning-db","version":1}\n{"signature":"c592"}\n' > %t.fields
// RUN: not stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test tuning-db=%t.fields progress=0" 2>&1 | FileCheck %s --check-prefix=FIELDS
// FIELDS: error: stark-search: tuning database: '{{.*}}.fields': line 2: corrupt record: field 'device' must be a non-empty string
//
// RUN: printf '{"format":"stark-tuning-db","version":2}\n' > %t.newer
// RUN: not stark-opt %s --stark-outline=all --stark-search="target=cpu device=cpu:test tuning-db=%t.newer progress=0" 2>&1 | FileCheck %s --check-prefix=NEWER
// NEWER: error: stark-search: tuning database: '{{.*}}.newer' is a stark tuning database of version 2; this stark reads version 1

// expected-error @+1 {{is not a stark tuning database (its first line must be {"format":"stark-tuning-db","version":N})}}
module {
  func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
    // expected-remark @+1 {{outlined as @stark_problem_0}}
    %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                       outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
    return %0 : tensor<16x4xf32>
  }
}
