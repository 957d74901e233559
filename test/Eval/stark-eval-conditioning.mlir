// Where the exact value of an output element is ill-conditioned (a dot
// product that lands near zero, through a steep tanh), a correct kernel
// that sums in another order can be further from the reference than the
// f32 bound, and further than twice the baseline's own worst error. The
// evaluator then measures how far the high-precision result of each
// element moves when the inputs move by a rounding error, and gives those
// elements that room (flag bound_from_conditioning). With this seed one
// element of the first trial needs it. Wrong kernels gain nothing: their
// errors are at well-conditioned elements.
//
// DEFINE: %{eval} = stark-eval --no-timing --seed 2 --problem %S/Inputs/gate-problem.mlir
// RUN: %{eval} --candidate %S/Inputs/gate-reversed-k.mlir | FileCheck %s --check-prefix=OK
// RUN: not %{eval} --candidate %S/Inputs/gate-drop-first-k.mlir | FileCheck %s --check-prefix=WRONG

// OK:      status: ok
// OK:      flags: {{.*}}bound_from_conditioning
// OK:      note: argument #2 has 1 ill-conditioned element(s) (trial 0 (uniform, seed {{[0-9]+}})): their exact value moves by more than the bound when the inputs move by their rounding error; the bound there is raised to twice that move

// WRONG:      status: wrong
// WRONG-NEXT: message: argument #2 differs from the reference in {{[0-9]+}} of 16384 elements (trial 0
// WRONG-NOT:  bound_from_conditioning
