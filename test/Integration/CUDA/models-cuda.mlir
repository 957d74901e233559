// End to end on the GPU for each example model (scaled down, with dense
// pseudo-random weights, by examples/models/generate.py --small): the whole
// pipeline runs over the model under a small total budget, and stark-eval
// checks the optimised model against the original, both bufferized the same
// way, on several input distributions.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %stark_src_root/examples/models/generate.py --small %t
// DEFINE: %{opt} = stark-opt --mlir-print-op-on-diagnostic=false --stark-pipeline="target=cuda top-k=2 budget=1 total-seconds=20 trials=1 timing-trials=1 progress=0 summary=1"
// DEFINE: %{eval} = stark-eval --target cuda --correctness-trials 3 --trials 2 --max-trials 2 --warmup 1 --no-f64-reference
//
// RUN: %{opt} %t/mlp_model_small.mlir -o %t/mlp.opt.mlir 2> %t/mlp.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t/mlp.remarks
// RUN: %{eval} --problem %t/mlp_model_small.mlir --candidate %t/mlp.opt.mlir | FileCheck %s
//
// RUN: %{opt} %t/transformer_layer_small.mlir -o %t/transformer.opt.mlir 2> %t/transformer.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t/transformer.remarks
// RUN: %{eval} --problem %t/transformer_layer_small.mlir --candidate %t/transformer.opt.mlir | FileCheck %s
//
// RUN: %{opt} %t/resnet_block_small.mlir -o %t/resnet.opt.mlir 2> %t/resnet.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t/resnet.remarks
// RUN: %{eval} --problem %t/resnet_block_small.mlir --candidate %t/resnet.opt.mlir | FileCheck %s
//
// The zoo's networks, scaled down: VGG-style (adaptive average pool by
// tensor.extract of a captured tensor), ResNet-18-style (strided convs,
// downsample), MobileNetV3-style (depthwise convs, squeeze-excite,
// hardswish), BERT-style (embedding gathers of integer token ids) and a
// LLaMA-style decoder block (rotary embedding, causal mask, SiLU-gated MLP).
// RUN: %{opt} %t/vgg_small.mlir -o %t/vgg.opt.mlir 2> %t/vgg.remarks
// RUN: FileCheck %s --check-prefix=ZOO < %t/vgg.remarks
// RUN: %{eval} --problem %t/vgg_small.mlir --candidate %t/vgg.opt.mlir | FileCheck %s
// RUN: %{opt} %t/resnet18_small.mlir -o %t/resnet18.opt.mlir 2> %t/resnet18.remarks
// RUN: FileCheck %s --check-prefix=ZOO < %t/resnet18.remarks
// RUN: %{eval} --problem %t/resnet18_small.mlir --candidate %t/resnet18.opt.mlir | FileCheck %s
// RUN: %{opt} %t/mobilenet_v3_small_small.mlir -o %t/mobilenet.opt.mlir 2> %t/mobilenet.remarks
// RUN: FileCheck %s --check-prefix=ZOO < %t/mobilenet.remarks
// RUN: %{eval} --problem %t/mobilenet_v3_small_small.mlir --candidate %t/mobilenet.opt.mlir | FileCheck %s
// RUN: %{opt} %t/bert_small.mlir -o %t/bert.opt.mlir 2> %t/bert.remarks
// RUN: FileCheck %s --check-prefix=ZOO < %t/bert.remarks
// RUN: %{eval} --problem %t/bert_small.mlir --candidate %t/bert.opt.mlir | FileCheck %s
// RUN: %{opt} %t/llama_block_small.mlir -o %t/llama.opt.mlir 2> %t/llama.remarks
// RUN: FileCheck %s --check-prefix=ZOO < %t/llama.remarks
// RUN: %{eval} --problem %t/llama_block_small.mlir --candidate %t/llama.opt.mlir | FileCheck %s

// The weight transposes are folded, never ranked; the summary closes the run.
// REMARKS-NOT: not ranked
// REMARKS:     remark: hot op #1:
// REMARKS:     remark: stark-search: model summary:
// CHECK:       status: ok

// ZOO:         remark: hot op #1:
// ZOO:         remark: stark-search: model summary:
