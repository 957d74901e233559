// The layer norm and RMS norm templates on fused problems (no GPU needed):
// the recognizer reads x, gamma, beta, eps and how the means are taken off
// the ops, and declines what it does not fully understand.

// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm.mlir --params threads=64,rows=4,vec=4,cache=1 | FileCheck %s --check-prefix=LN
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm.mlir --params threads=64,rows=4,vec=4,cache=1 --source | FileCheck %s --check-prefix=LN-SRC
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm-long.mlir --source | FileCheck %s --check-prefix=LONG
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm-3d.mlir --family layernorm --params threads=32,rows=4,vec=2,cache=1 --source | FileCheck %s --check-prefix=LN3D
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/rmsnorm.mlir --source | FileCheck %s --check-prefix=RMS
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/rmsnorm.mlir --family layernorm 2>&1 | FileCheck %s --check-prefix=NOTLN
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm.mlir --family layernorm --params threads=16,rows=2,vec=4,cache=1 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/layernorm.mlir --family layernorm --params threads=16,rows=1 2>&1 | FileCheck %s --check-prefix=WARP
// RUN: not stark-template --problem %S/Inputs/templates/rmsnorm-middle-dim.mlir --family rmsnorm 2>&1 | FileCheck %s --check-prefix=MIDDLE
// RUN: not stark-template --problem %S/Inputs/templates/fused-bias-relu.mlir --family layernorm 2>&1 | FileCheck %s --check-prefix=BIASRELU

// A layer norm has exactly one family; rows of 1000 fit the registers of
// 32 lanes with 4-wide vectors, so that goes first.
// LIST: layernorm: {{[0-9]+}} parameter sets
// LIST-NEXT: cache=1,rows=2,threads=32,vec=4
// LIST-NOT: reduce_row
// LIST-NOT: elementwise

// LN-LABEL: func.func @kernel(
// LN-SAME: %{{.+}}: memref<33x1000xf32>, %{{.+}}: memref<1000xf32>, %{{.+}}: memref<1000xf32>, %{{.+}}: memref<33x1000xf32>)
// LN-SAME: stark.cuda = #stark.cuda<family = "layernorm", launches = [#stark.launch<block = array<i64: 64, 4, 1>, grid = array<i64: 9, 1, 1>, kernel = "stark_layernorm">], params = {cache = "1", rows = "4", threads = "64", vec = "4"}, source =

// x, gamma and beta are the arguments in order; eps is the problem's f32
// constant; both means divide the sum by the row length.
// LN-SRC: // Layer norm of 33 rows of 1000, eps 9.99999975e-06f, gamma, beta.
// LN-SRC: struct StarkNorm {
// LN-SRC: static constexpr Idx kRows = 33, kLen = 1000;
// LN-SRC-NEXT: static constexpr int kLanes = 64, kRowsPerBlock = 4, kVec = 4;
// LN-SRC-NEXT: static constexpr bool kCache = true, kRms = false, kDivide = false;
// LN-SRC-NEXT: static constexpr bool kHasGamma = true, kHasBeta = true;
// LN-SRC-NEXT: Compute eps() { return 9.99999975e-06f; }
// LN-SRC-NEXT: Compute mean(Compute s) { return s / (Compute)kLen; }
// LN-SRC-NEXT: Compute variance(Compute s) { return s / (Compute)kLen; }
// LN-SRC: stark_layernorm(
// LN-SRC-NEXT: stark_kernels::normRows<StarkNorm>(arg0, arg3, arg1, arg2);

// Rows of 30000 do not fit the registers: Welford statistics; the problem
// multiplies the sums by its constant 1/30000, and so does the kernel.
// LONG: // Layer norm of 8 rows of 30000, eps 9.99999975e-06f.
// LONG: static constexpr bool kCache = false, kRms = false, kDivide = false;
// LONG-NEXT: static constexpr bool kHasGamma = false, kHasBeta = false;
// LONG: Compute mean(Compute s) { return s * 3.33333337e-05f; }
// LONG-NEXT: Compute variance(Compute s) { return s * 3.33333337e-05f; }
// LONG: stark_kernels::normRows<StarkNorm>(arg0, arg1, nullptr, nullptr);

// Normalised over the two trailing dimensions: 5 rows of 6 x 50; gamma is
// indexed by the position in the row.
// LN3D: // Layer norm of 5 rows of 300, eps 9.99999975e-06f, gamma.
// LN3D: static constexpr int kLanes = 32, kRowsPerBlock = 4, kVec = 2;

// RMS norm written as x / sqrt(eps + mean(x * x)) * gamma.
// RMS: // RMS norm of 80 rows of 768, eps 9.99999997e-07f, gamma.
// RMS: static constexpr bool kCache = true, kRms = true, kDivide = true;
// RMS: stark_kernels::normRows<StarkNorm>(arg0, arg2, arg1, nullptr);

// NOTLN: the problem is an RMS norm, not a layer norm
// BIG: cache=1 keeps 64 elements per lane in registers (at most 32)
// WARP: threads must be a power of two, threads * rows a multiple of 32 and at most 1024, vec a power of two

// A sum of squares over a middle dimension is not a norm over the trailing
// ones, an element-wise chain no norm at all: the norm families decline
// them (fused_rows and elementwise take them, see stark-template-fused.mlir).
// MIDDLE: family 'rmsnorm' does not apply to fused(linalg.generic,linalg.generic): the problem is not a fused layer norm or RMS norm
// BIASRELU: family 'layernorm' does not apply to fused(linalg.generic,linalg.generic): the problem is not a fused layer norm or RMS norm
