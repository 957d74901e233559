// A whole program whose weights were left out of the file cannot run: the
// error names the first weight without data, on the op that holds it, and
// how to opt in. With --synthesize-elided-weights every such weight gets
// deterministic data of its type: the program evaluates against what
// --stark-fold-constants and --stark-pipeline made of it with the same
// option, which
// synthesised the same weights and carries them in its output.
//
// DEFINE: %{eval} = stark-eval --trials 2 --max-trials 2 --warmup 1 --no-cache-flush --correctness-trials 3
// RUN: not %{eval} --problem %S/Inputs/program-mlp-elided.mlir --candidate %S/Inputs/program-mlp-elided.mlir | FileCheck %s --check-prefix=REFUSED
// REFUSED:      status: error
// REFUSED-NEXT: message: problem: loc("{{.*}}program-mlp-elided.mlir":6:1): weight '@w' of type 'tensor<3x4xf32>' has no data: the exporter elided it (dense_resource<__elided__>), nor have 2 other weight(s); the program cannot run without its weights (stark-eval --synthesize-elided-weights replaces each missing weight with deterministic weights of its type, for timing and verification only)
//
// The program's weights synthesised by stark-opt alone, against the
// program's synthesised by stark-eval.
// RUN: stark-opt %S/Inputs/program-mlp-elided.mlir --stark-fold-constants="synthesize-elided-weights=1" -o %t.folded.mlir 2>/dev/null
// RUN: %{eval} --synthesize-elided-weights --problem %S/Inputs/program-mlp-elided.mlir --candidate %t.folded.mlir | FileCheck %s --check-prefix=SELF
// SELF:      status: ok
// SELF:      flags: {{.*}}synthesized_weights
// SELF:      weights synthesised (deterministic, not the model's): problem: @w, torch_tensor_3_torch.float32, __elided__#0; candidate: @w, torch_tensor_3_torch.float32, __elided__#0
//
// RUN: stark-opt %S/Inputs/program-mlp-elided.mlir --stark-pipeline="target=cpu top-k=2 budget=1 trials=1 timing-trials=1 progress=0 synthesize-elided-weights=1 report=%t.report.json" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// REMARKS: remark: weight '@w' of type 'tensor<3x4xf32>' synthesised: it had no data; deterministic values stand in for it, for timing and verification only
// RUN: FileCheck %s --check-prefix=REPORT < %t.report.json
// REPORT:      "synthesized_weights": [
// REPORT-NEXT:   "@w",
// REPORT-NEXT:   "torch_tensor_3_torch.float32",
// REPORT-NEXT:   "__elided__#0"
// REPORT-NEXT: ]
// RUN: %{eval} --synthesize-elided-weights --problem %S/Inputs/program-mlp-elided.mlir --candidate %t.opt.mlir | FileCheck %s --check-prefix=OPT
// OPT:      status: ok
// OPT:      weights synthesised (deterministic, not the model's): problem: @w, torch_tensor_3_torch.float32, __elided__#0; candidate: @w, torch_tensor_3_torch.float32, __elided__#0
//
// The synthesised weights are not the model's: against the program with
// its real weights the outputs differ.
// RUN: not %{eval} --synthesize-elided-weights --problem %S/Inputs/program-mlp-elided.mlir --candidate %S/Inputs/program-mlp-scaled.mlir | FileCheck %s --check-prefix=WRONG
// WRONG: status: wrong
