//===- Passes.td - stark transformation passes ------------*- tablegen -*-===//

#ifndef STARK_TRANSFORMS_PASSES
#define STARK_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def StarkHotOpsPass : Pass<"stark-hot-ops", "ModuleOp"> {
  let summary = "Rank linalg ops by roofline cost and mark the hot ones";
  let description = [{
    Computes, for every linalg structured op in the module (named ops and
    `linalg.generic`, on tensors or memrefs), the arithmetic it performs
    (operations in its body per iteration point, times the iteration space)
    and the bytes it moves (inputs read, outputs read when the body uses
    their initial value, outputs written). A roofline on the selected
    hardware profile turns both into an estimated time and says whether the
    op is compute- or memory-bound.

    Ops are ranked by estimated time. Those within the first `top-k` whose
    share of the total is at least `min-share` get a `stark.cost` attribute
    and a remark. Ops whose cost is unknown (dynamic shapes, unknown body
    ops or element types) get a remark saying why and are never marked.

    Before (`profile=h200`):

    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                       outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    ```

    After:

    ```mlir
    %0 = linalg.matmul {stark.cost = {bound = "compute", bytes = 16777216 : i64,
                          class = "contraction", dtype = "f32",
                          flops = 2147483648 : i64, profile = "h200",
                          rank = 1 : i64, share = 1.0 : f64,
                          time_us = 32.05 : f64}}
           ins(...) outs(...) -> tensor<1024x1024xf32>
    ```
  }];
  let dependentDialects = ["linalg::LinalgDialect"];
  let options = [
    Option<"profile", "profile", "std::string", /*default=*/"\"host\"",
           "Hardware profile to estimate on: h200, a100 or host">,
    Option<"topK", "top-k", "unsigned", /*default=*/"5",
           "Mark at most this many ops (0: no limit)">,
    Option<"minShare", "min-share", "double", /*default=*/"0.0",
           "Mark only ops with at least this fraction (0 to 1) of the "
           "total estimated time">,
    Option<"remarkAll", "remark-all", "bool", /*default=*/"false",
           "Also emit a remark for ranked ops that are not hot">,
  ];
  let statistics = [
    Statistic<"numAnalysed", "num-analysed", "Linalg ops with a known cost">,
    Statistic<"numHot", "num-hot", "Ops marked with stark.cost">,
    Statistic<"numUnknown", "num-unknown", "Ops whose cost is unknown">,
  ];
}

def StarkOutlinePass : Pass<"stark-outline", "ModuleOp"> {
  let summary = "Turn each hot op into a self-contained kernel problem";
  let description = [{
    For every linalg op marked by `--stark-hot-ops` (or every statically
    shaped linalg op with `all`), builds a kernel problem: a module with one
    function `@kernel` whose arguments are memrefs (the op's shaped inputs,
    then its outputs) and whose body is the op on those memrefs. Constants
    the op captures are cloned in. The problem module carries
    `stark.problem = {entry, num_outputs, op, shapes, signature}`; the
    signature hashes its canonical form, so it is the same across runs and
    machines and for the tensor and memref forms of the same op.

    Problems are appended to the input module as nested modules
    `@stark_problem_<n>` (ops with the same signature share one), and the op
    gets `stark.problem = @stark_problem_<n>`. With `dir`, each problem is
    also written to `<dir>/<signature>.mlir`, ready for `stark-eval`.

    Ops that cannot be outlined (dynamic shapes, values captured from the
    surrounding code) keep their place and get a remark saying why.
  }];
  let dependentDialects = ["func::FuncDialect", "memref::MemRefDialect",
                           "linalg::LinalgDialect"];
  let options = [
    Option<"all", "all", "bool", /*default=*/"false",
           "Outline every linalg op, not only those marked stark.cost">,
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Also write each problem to <dir>/<signature>.mlir">,
  ];
  let statistics = [
    Statistic<"numOutlined", "num-outlined", "Ops outlined">,
    Statistic<"numProblems", "num-problems", "Distinct problems created">,
    Statistic<"numSkipped", "num-skipped", "Ops that could not be outlined">,
  ];
}

#endif // STARK_TRANSFORMS_PASSES
