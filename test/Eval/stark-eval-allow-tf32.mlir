// allow-tf32 holds the f32 outputs of a contraction to the tf32 bound
// (atol 4 * 2^-11 * sqrt(512) = 0.0442, rtol 0.01). A candidate that rounds
// its inputs to tf32, as tensor cores do, fails the f32 bound (on the
// normal inputs, whose sums cancel) and passes the tf32 one; the result
// says which bound it was held to.

// RUN: not stark-eval --no-timing --problem %S/Inputs/matmul-512.mlir --candidate %S/Inputs/matmul-512-tf32.mlir | FileCheck %s --check-prefix=F32
// F32: status: wrong
// F32: tolerance: f32 atol 0.0001, rtol 0.0001 (reduction length 512)
// F32-NOT: tf32_tolerance

// RUN: stark-eval --no-timing --allow-tf32 --problem %S/Inputs/matmul-512.mlir --candidate %S/Inputs/matmul-512-tf32.mlir | FileCheck %s --check-prefix=TF32
// TF32: status: ok
// TF32: tolerance: f32 atol 0.0442, rtol 0.01 (reduction length 512)
// TF32: flags: {{.*}}tf32_tolerance
// TF32: note: allow-tf32: the f32 outputs are held to the tf32 bound (atol 4.42e-02, rtol 1.00e-02) instead of the f32 one (atol 1.00e-04, rtol 1.00e-04)

// The problem itself passes either way.
// RUN: stark-eval --no-timing --allow-tf32 --problem %S/Inputs/matmul-512.mlir --candidate %S/Inputs/matmul-512.mlir | FileCheck %s --check-prefix=SELF
// SELF: status: ok
