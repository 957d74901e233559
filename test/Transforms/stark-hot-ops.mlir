// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=h200 top-k=0" -verify-diagnostics | FileCheck %s
// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=h200 top-k=1" 2>/dev/null | FileCheck %s --check-prefix=TOP1
// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=h200 top-k=0 min-share=0.3" 2>/dev/null | FileCheck %s --check-prefix=SHARE
// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=a100" 2>&1 >/dev/null | FileCheck %s --check-prefix=A100
// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=h200 top-k=1 remark-all" 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// Running the pass twice gives the same marks (stale ones are dropped).
// RUN: stark-opt %s --split-input-file --stark-hot-ops="profile=h200 top-k=0" --stark-hot-ops="profile=h200 top-k=1" 2>/dev/null | FileCheck %s --check-prefix=TOP1

// Matmul: 2*M*N*K FLOPs; A, B and C (accumulated into) read, C written.
// CHECK-LABEL: func.func @matmul
// A100: remark: hot op #1: contraction, 2.15 GFLOP, 16.8 MB, est. 110.13 us on a100 (compute-bound, 100.0% of total)
// CHECK: linalg.matmul {stark.cost = #stark.cost<bound = "compute", bytes = 16777216, op_class = "contraction", dtype = "f32", flops = 2147483648, profile = "h200", rank = 1, share = 1.000000e+00, time_us = {{.*}}>}
func.func @matmul(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>,
                  %c: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  // expected-remark @+1 {{hot op #1: contraction, 2.15 GFLOP, 16.8 MB, est. 32.05 us on h200 (compute-bound, 100.0% of total)}}
  %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}

// -----

// Batch matmul on memrefs, bf16: tensor-core rate of the profile.
// CHECK-LABEL: func.func @batch_matmul_memref
// CHECK: linalg.batch_matmul {stark.cost = #stark.cost<bound = "memory", bytes = 3145728, op_class = "contraction", dtype = "bf16", flops = 134217728
func.func @batch_matmul_memref(%a: memref<16x128x256xbf16>, %b: memref<16x256x128xbf16>,
                               %c: memref<16x128x128xbf16>) {
  // expected-remark @+1 {{hot op #1: contraction, 134 MFLOP, 3.15 MB, est. 655.4 ns on h200 (memory-bound, 100.0% of total)}}
  linalg.batch_matmul ins(%a, %b : memref<16x128x256xbf16>, memref<16x256x128xbf16>)
                      outs(%c : memref<16x128x128xbf16>)
  return
}

// -----

// Convolution: 2*N*OH*OW*F*KH*KW*C FLOPs = 2*8*62*62*64*3*3*32.
// CHECK-LABEL: func.func @conv
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, stark.cost = #stark.cost<bound = "compute", {{.*}}op_class = "convolution", dtype = "f32", flops = 1133641728
func.func @conv(%in: tensor<8x64x64x32xf32>, %w: tensor<3x3x32x64xf32>,
                %out: tensor<8x62x62x64xf32>) -> tensor<8x62x62x64xf32> {
  // expected-remark @+1 {{hot op #1: convolution, 1.13 GFLOP}}
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %w : tensor<8x64x64x32xf32>, tensor<3x3x32x64xf32>)
         outs(%out : tensor<8x62x62x64xf32>) -> tensor<8x62x62x64xf32>
  return %0 : tensor<8x62x62x64xf32>
}

// -----

// Pooling: one max per window point, 1*31*31*16*2*2.
// CHECK-LABEL: func.func @max_pool
// CHECK: linalg.pooling_nhwc_max {{{.*}}stark.cost = #stark.cost<bound = "memory", {{.*}}op_class = "pooling", dtype = "f32", flops = 61504
func.func @max_pool(%in: tensor<1x32x32x16xf32>, %win: tensor<2x2xf32>,
                    %out: tensor<1x31x31x16xf32>) -> tensor<1x31x31x16xf32> {
  // expected-remark @+1 {{hot op #1: pooling}}
  %0 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %win : tensor<1x32x32x16xf32>, tensor<2x2xf32>)
         outs(%out : tensor<1x31x31x16xf32>) -> tensor<1x31x31x16xf32>
  return %0 : tensor<1x31x31x16xf32>
}

// -----

// A row-sum reduction: one add per element, memory-bound.
// CHECK-LABEL: func.func @row_sum
// CHECK: linalg.reduce
// CHECK-SAME: stark.cost = #stark.cost<bound = "memory", bytes = 16809984, op_class = "reduction", dtype = "f32", flops = 4194304
func.func @row_sum(%x: tensor<4096x1024xf32>, %init: tensor<4096xf32>) -> tensor<4096xf32> {
  // expected-remark @+1 {{hot op #1: reduction, 4.19 MFLOP, 16.8 MB}}
  %0 = linalg.reduce ins(%x : tensor<4096x1024xf32>) outs(%init : tensor<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<4096xf32>
}

// -----

// An elementwise chain: all memory-bound, so the ranking follows the bytes
// moved: the three-input op first, the one-input ReLU last.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @elementwise_chain
// CHECK: linalg.generic {{{.*}}stark.cost = #stark.cost<bound = "memory", bytes = 50331648, op_class = "elementwise", dtype = "f32", flops = 8388608, profile = "h200", rank = 2
// CHECK: linalg.generic {{{.*}}stark.cost = #stark.cost<bound = "memory", bytes = 33554432, op_class = "elementwise", dtype = "f32", flops = 4194304, profile = "h200", rank = 3
// CHECK: linalg.generic {{{.*}}stark.cost = #stark.cost<bound = "memory", bytes = 67108864, op_class = "elementwise", dtype = "f32", flops = 8388608, profile = "h200", rank = 1
// TOP1-LABEL: func.func @elementwise_chain
// TOP1-NOT: stark.cost
// TOP1: stark.cost = #stark.cost<{{.*}}rank = 1
// TOP1-NOT: stark.cost
// TOP1: return
// SHARE-LABEL: func.func @elementwise_chain
// SHARE-NOT: stark.cost
// SHARE: stark.cost = #stark.cost<{{.*}}rank = 2
// SHARE-NOT: stark.cost
// SHARE: stark.cost = #stark.cost<{{.*}}rank = 1
// SHARE-NOT: stark.cost
// SHARE: return
// Remarks come in rank order.
// ALL: remark: hot op #1: elementwise, 8.39 MFLOP, 67.1 MB
// ALL: remark: op #2 (not hot): elementwise, 8.39 MFLOP, 50.3 MB
// ALL: remark: op #3 (not hot): elementwise, 4.19 MFLOP, 33.6 MB
func.func @elementwise_chain(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>,
                             %c: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %e = tensor.empty() : tensor<2048x2048xf32>
  // expected-remark @+1 {{hot op #2: elementwise, 8.39 MFLOP, 50.3 MB}}
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%e : tensor<2048x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %x : f32
    linalg.yield %s : f32
  } -> tensor<2048x2048xf32>
  // expected-remark @+1 {{hot op #3: elementwise, 4.19 MFLOP, 33.6 MB}}
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<2048x2048xf32>) outs(%e : tensor<2048x2048xf32>) {
  ^bb0(%x: f32, %o: f32):
    %cst = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<2048x2048xf32>
  // expected-remark @+1 {{hot op #1: elementwise, 8.39 MFLOP, 67.1 MB}}
  %2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%1, %b, %c : tensor<2048x2048xf32>, tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%e : tensor<2048x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  } -> tensor<2048x2048xf32>
  return %2 : tensor<2048x2048xf32>
}

// -----

// Softmax over rows as generics: max-reduce, exp-sub, sum-reduce, divide.
// Each reduction ranks with the fill of its output (one hot op).
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK-COUNT-4: stark.cost
func.func @softmax(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<512xf32>
  %e2 = tensor.empty() : tensor<512x1024xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  // expected-remark @+1 {{hot op #3: fill + reduction, 524 KFLOP, 2.10 MB}}
  %max = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x1024xf32>) outs(%mi : tensor<512xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  // expected-remark @+1 {{hot op #1: elementwise, 1.05 MFLOP, 4.20 MB}}
  %ex = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<512x1024xf32>, tensor<512xf32>) outs(%e2 : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<512x1024xf32>
  %si = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512xf32>) -> tensor<512xf32>
  // expected-remark @+1 {{hot op #4: fill + reduction, 524 KFLOP, 2.10 MB}}
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<512x1024xf32>) outs(%si : tensor<512xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<512xf32>
  // expected-remark @+1 {{hot op #2: elementwise, 524 KFLOP, 4.20 MB}}
  %out = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<512x1024xf32>, tensor<512xf32>) outs(%e2 : tensor<512x1024xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<512x1024xf32>
  return %out : tensor<512x1024xf32>
}

// -----

// Dynamic shapes: a remark, no attribute, no made-up number.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: stark.cost
func.func @dynamic(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>,
                   %c: tensor<?x32xf32>) -> tensor<?x32xf32> {
  // expected-remark @+1 {{cost unknown: dynamic shape}}
  %0 = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x32xf32>)
                     outs(%c : tensor<?x32xf32>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// -----

// An op in the body without a known cost.
func.func private @opaque(f32) -> f32
// CHECK-LABEL: func.func @unknown_body
// CHECK-NOT: stark.cost
func.func @unknown_body(%a: tensor<64xf32>, %o: tensor<64xf32>) -> tensor<64xf32> {
  // expected-remark @+1 {{cost unknown: body op 'func.call' has no known cost}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<64xf32>) outs(%o : tensor<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = func.call @opaque(%x) : (f32) -> f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %0 : tensor<64xf32>
}

// -----

// linalg.softmax: five operations per element, input read once, output
// written once.
// CHECK-LABEL: func.func @named_softmax
// CHECK: linalg.softmax {stark.cost = #stark.cost<bound = "memory", bytes = 8192, op_class = "reduction", dtype = "f32", flops = 5120
func.func @named_softmax(%x: tensor<16x64xf32>, %o: tensor<16x64xf32>) -> tensor<16x64xf32> {
  // expected-remark @+1 {{hot op #1: reduction, 5.12 KFLOP, 8.19 KB}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<16x64xf32>) outs(%o : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
