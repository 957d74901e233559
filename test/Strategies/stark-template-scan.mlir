// The scan family recognises cumsum-style masked reductions (the mask
// k <= j, k < j, j <= k on the reduced loop k and the output's loop j) and
// writes a chunked block scan: inclusive or exclusive, forward or from the
// end, add or mul; it declines plain reductions.
//
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/cumsum.mlir --list | FileCheck %s --check-prefix=LIST
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/cumsum.mlir --family scan --source | FileCheck %s --check-prefix=INCL
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/cumsum-long-exclusive.mlir --family scan --params threads=64,items=2 --source | FileCheck %s --check-prefix=EXCL
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/cumsum-reverse.mlir --family scan --source | FileCheck %s --check-prefix=REV
// RUN: stark-template --problem %S/../Integration/CUDA/templates/Inputs/cumprod.mlir --family scan --source | FileCheck %s --check-prefix=PROD
// RUN: not stark-template --problem %S/Inputs/templates/row-sum.mlir --family scan 2>&1 | FileCheck %s --check-prefix=NOT-SCAN
// RUN: not stark-template --problem %S/../Integration/CUDA/templates/Inputs/cumsum.mlir --family scan --params threads=48 2>&1 | FileCheck %s --check-prefix=BAD-PARAMS

// The scan is offered before the O(L^2) reductions.
// LIST: scan: {{[0-9]+}} parameter sets
// LIST: reduce_row:

// The candidate carries Scan.cuh (the block scan); the part generated for
// the problem is its config and the row's load and store.
// INCL: namespace stark_kernels {
// INCL: __device__ __forceinline__ void scanRow(Load load, Store store) {
// INCL: // Inclusive forward scan (add) of linalg.generic: 64 rows of 1000.
// INCL: static constexpr Idx kLen = 1000;
// INCL: static constexpr int kThreads = 256, kItems = 4;
// INCL: static constexpr bool kExclusive = false;
// INCL: auto load = [&](idx_t q) -> acc_t {
// INCL: const idx_t i2 = q;
// INCL: auto store = [&](idx_t q, acc_t prefix) {
// INCL: arg1[(1000) * i0 + i1] = stark_cast<float>(StarkScan::op((acc_t)stark_widen(arg1[(1000) * i0 + i1]), prefix));
// INCL: stark_kernels::scanRow<StarkScan>(load, store);

// EXCL: // Exclusive forward scan (add) of linalg.generic: 3 rows of 5000.
// EXCL: static constexpr int kThreads = 64, kItems = 2;
// EXCL: static constexpr bool kExclusive = true;

// REV: // Inclusive reverse scan (add) of linalg.generic: 17 rows of 300.
// REV: const idx_t i2 = StarkScan::kLen - 1 - q;
// REV: const idx_t i1 = StarkScan::kLen - 1 - q;

// PROD: // Inclusive forward scan (mul) of linalg.generic: 32 rows of 200.
// PROD: op(Acc a, Acc b) { return (a * b); }
// PROD: identity() { return 1.0f; }

// NOT-SCAN: the reduced value is not select(k <cmp> j, x, identity)
// BAD-PARAMS: threads must be a multiple of 32 up to 1024, items 1 to 16
