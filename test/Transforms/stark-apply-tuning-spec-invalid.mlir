// A spec that is not a stark tuning spec, or cannot be read, is an error;
// the program is not changed.
//
// RUN: echo 'module {}' > %t.not-a-spec.mlir
// RUN: stark-opt %s --stark-apply-tuning-spec="spec=%t.not-a-spec.mlir" -verify-diagnostics
// RUN: not stark-opt %s --stark-apply-tuning-spec="spec=%t.no-such-spec.mlir" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: stark-apply-tuning-spec: cannot open input file '{{.*}}.no-such-spec.mlir'
// RUN: not stark-opt %s --stark-apply-tuning-spec 2>&1 | FileCheck %s --check-prefix=NO-SPEC
// NO-SPEC: error: stark-apply-tuning-spec: give the spec as spec=FILE
// RUN: echo 'module attributes {stark.tuning_spec = {}} { transform.stark.apply_winner }' > %t.bad.mlir
// RUN: not stark-opt %s --stark-apply-tuning-spec="spec=%t.bad.mlir" 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: error: stark-apply-tuning-spec: '{{.*}}.bad.mlir' does not parse:
// PARSE: {{.*}}.bad.mlir:1:{{[0-9]+}}: error:

// expected-error @+1 {{not a stark tuning spec (its module has no stark.tuning_spec attribute)}}
module {
  func.func @matmul(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %c: tensor<16x4xf32>) -> tensor<16x4xf32> {
    %0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x4xf32>)
                       outs(%c : tensor<16x4xf32>) -> tensor<16x4xf32>
    return %0 : tensor<16x4xf32>
  }
}
