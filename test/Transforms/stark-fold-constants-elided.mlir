// Weights without data: by default the pass warns, once, on the first
// weight that the program cannot run (naming how to opt in) and changes
// nothing about them; with synthesize-elided-weights each gets
// deterministic data of its type, a remark on its holder, and its name in
// the module's stark.synthesized_weights.
// RUN: stark-opt %s --stark-fold-constants -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: stark-opt %s --stark-fold-constants="synthesize-elided-weights=1" -verify-diagnostics -o %t.a.mlir
// RUN: FileCheck %s --check-prefix=SYNTH < %t.a.mlir
// The same program gets the same weights every time.
// RUN: stark-opt %s --stark-fold-constants="synthesize-elided-weights=1" -o %t.b.mlir 2>/dev/null
// RUN: diff %t.a.mlir %t.b.mlir
// The pipeline hands the option to this pass.
// RUN: stark-opt %s --dump-pass-pipeline -o /dev/null --stark-pipeline="target=cpu synthesize-elided-weights=1" 2>&1 | FileCheck %s --check-prefix=PIPE
// PIPE: stark-fold-constants{max-fold-bytes={{[0-9]+}} synthesize-elided-weights=true}

// SYNTH:      module attributes {stark.synthesized_weights = ["@w", "torch_tensor_3_torch.float32", "__elided__#0"]}
// The globals folded into the constants that carry the new blobs.
// SYNTH-NOT:  ml_program.global
// SYNTH-LABEL: func.func @forward
// SYNTH-DAG:  arith.constant dense_resource<stark_synthesized__w> : tensor<3x4xf32>
// SYNTH-DAG:  arith.constant dense_resource<stark_synthesized_torch_tensor_3_torch_float32> : tensor<3xf32>
// SYNTH-DAG:  arith.constant dense_resource<stark_synthesized___elided___0> : tensor<8x3xf32>
// SYNTH-NOT:  __elided__>
// SYNTH:      dialect_resources: {
// SYNTH-DAG:  stark_synthesized__w: "0x04000000{{([0-9A-F]{96})}}"
// SYNTH-DAG:  stark_synthesized_torch_tensor_3_torch_float32: "0x04000000{{([0-9A-F]{24})}}"
// SYNTH-DAG:  stark_synthesized___elided___0: "0x04000000{{([0-9A-F]{192})}}"

// WARN: [[@LINE+3]]:1: warning: weight '@w' of type 'tensor<3x4xf32>' has no data: the exporter elided it (dense_resource<__elided__>), nor have 2 other weight(s); the program cannot run without its weights (--stark-pipeline="synthesize-elided-weights=1" or --stark-fold-constants="synthesize-elided-weights=1" replaces each missing weight with deterministic weights of its type, for timing and verification only)
// WARN-NOT: warning
// expected-remark @+1 {{weight '@w' of type 'tensor<3x4xf32>' synthesised: it had no data; deterministic values stand in for it, for timing and verification only}}
ml_program.global private @w(dense_resource<__elided__> : tensor<3x4xf32>) : tensor<3x4xf32>
// expected-remark @+1 {{weight 'torch_tensor_3_torch.float32' of type 'tensor<3xf32>' synthesised}}
ml_program.global private @b(dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>) : tensor<3xf32>
func.func @forward(%x: tensor<8x4xf32>) -> tensor<8x3xf32> {
  %w = ml_program.global_load_const @w : tensor<3x4xf32>
  %b = ml_program.global_load_const @b : tensor<3xf32>
  // expected-remark @+1 {{weight '__elided__#0' of type 'tensor<8x3xf32>' synthesised}}
  %scale = arith.constant dense_resource<__elided__> : tensor<8x3xf32>
  %et = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%et : tensor<4x3xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x3xf32>) -> tensor<8x3xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<8x4xf32>, tensor<4x3xf32>) outs(%acc : tensor<8x3xf32>) -> tensor<8x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b, %scale : tensor<8x3xf32>, tensor<3xf32>, tensor<8x3xf32>) outs(%e : tensor<8x3xf32>) {
  ^bb0(%v: f32, %bias: f32, %s: f32, %o: f32):
    %a = arith.addf %v, %bias : f32
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  } -> tensor<8x3xf32>
  return %y : tensor<8x3xf32>
}
