//===- Passes.td - stark transformation passes ------------*- tablegen -*-===//

#ifndef STARK_TRANSFORMS_PASSES
#define STARK_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def StarkFoldConstantsPass : Pass<"stark-fold-constants", "ModuleOp"> {
  let summary = "Fold the work a model does on constants alone";
  let description = [{
    Frontends emit work on a model's weights as ordinary ops: torch-mlir
    transposes the weight of every linear layer, TOSA broadcasts biases,
    casts and reshapes constants. That work is the same on every run; left
    in the program it would rank as hot ops (a large weight transpose moves
    as many bytes as the matmul reads) and be searched. This pass folds it:

    - `ml_program.global_load_const` of an immutable global with a value
      becomes `arith.constant` of that value (globals nobody loads any more
      are dropped when private);
    - a linalg op whose payload yields its one input unchanged (a
      transpose, a broadcast, a copy) of a dense constant becomes the moved
      constant;
    - an all-parallel linalg op whose inputs, and every value its payload
      captures from above, are splat or scalar constants becomes the splat
      its payload computes;
    - reshapes and casts of constants fold through the tensor dialect's
      folders.

    No constant larger than `max-fold-bytes` is created; linalg work on
    constants that is not folded (an element-wise op on a non-splat weight,
    a constant stored as `dense_resource`) is still never ranked by
    `--stark-hot-ops`, which says so in a remark.

    Weights without data (`dense_resource<__elided__>`, or a blob missing
    from the file's `dialect_resources`) do not stop the pipeline, but the
    program cannot run: a warning says so on the first one. With
    `synthesize-elided-weights`, each is first replaced by deterministic
    weights of its declared type (a fixed LCG keyed by the weight's name,
    `stark/Analysis/ElidedWeights.h`), with a remark on its holder and the
    names in the module's `stark.synthesized_weights`; `stark-eval
    --synthesize-elided-weights` gives the original program the same
    weights, so the result can be timed and verified against it.

    Before:

    ```mlir
    ml_program.global private @w(dense<...> : tensor<256x128xf32>) : tensor<256x128xf32>
    %w = ml_program.global_load_const @w : tensor<256x128xf32>
    %wt = linalg.transpose ins(%w : tensor<256x128xf32>)
            outs(%e : tensor<128x256xf32>) permutation = [1, 0]
    %y = linalg.matmul ins(%x, %wt : ...) outs(%acc : ...)
    ```

    After:

    ```mlir
    %wt = arith.constant dense<...> : tensor<128x256xf32>
    %y = linalg.matmul ins(%x, %wt : ...) outs(%acc : ...)
    ```
  }];
  let dependentDialects = ["arith::ArithDialect", "linalg::LinalgDialect",
                           "tensor::TensorDialect"];
  let options = [
    Option<"maxBytes", "max-fold-bytes", "int64_t",
           /*default=*/"int64_t(1) << 30",
           "Largest constant (in bytes) a fold may create">,
    Option<"synthesizeElidedWeights", "synthesize-elided-weights", "bool",
           /*default=*/"false",
           "Replace each weight without data (dense_resource<__elided__>, "
           "a blob the file lacks) with deterministic weights of its type, "
           "for timing and verification">,
  ];
  let statistics = [
    Statistic<"numFolded", "num-folded", "Linalg ops folded into constants">,
    Statistic<"numSynthesized", "num-synthesized",
              "Weights without data replaced by synthesised ones">,
  ];
}

def StarkExtractsToOperandsPass
    : Pass<"stark-extracts-to-operands", "ModuleOp"> {
  let summary = "Turn reads of captured tensors at affine indices into "
                "operands of the linalg op";
  let description = [{
    torch-mlir writes adaptive average pooling as a `linalg.generic` over
    the output and the largest window whose body reads the input with
    `tensor.extract` of a tensor captured from above, at indices computed
    with `linalg.index` and integer arithmetic (the window's start and end,
    a clamp, and a select that masks reads past the window's end). To the
    rest of stark such an op has no cost, no kernel family and no place in
    a fused group: it would stay with the upstream lowering, one thread per
    output element looping over its window.

    This pass evaluates the index arithmetic at every point of the op's
    static iteration space (at most `max-points` points). Where each index
    of each `tensor.extract` equals one affine function of the loop indices
    at every point and stays inside the tensor, the read becomes a new input
    operand with that indexing map; a select whose condition is the same at
    every point becomes the side it picks; an input the body no longer
    reads (the window's shape) is dropped when the other operands still
    give every loop its extent. The pool is then a plain reduction. Where
    the indices are not affine (a window that does not divide the input, a
    gather through data), the op is left as it is, with a remark saying
    why.

    Before (a 56 x 56 window pooled to 1 x 1; the end arithmetic elided):

    ```mlir
    %sum = linalg.generic {indexing_maps = [
          affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>,
          affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction"]}
        ins(%window : tensor<56x56xf32>) outs(%zero : tensor<1x16x1x1xf32>) {
    ^bb0(%w: f32, %acc: f32):
      %n = linalg.index 0 : index
      ...
      %v = tensor.extract %x[%n, %c, %ic2, %ic3] : tensor<1x16x56x56xf32>
      %z = arith.select %ok, %v, %cst0 : f32
      %r = arith.addf %acc, %z : f32
      linalg.yield %r : f32
    } -> tensor<1x16x1x1xf32>
    ```

    After:

    ```mlir
    %sum = linalg.generic {indexing_maps = [
          affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>,
          affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>],
        iterator_types = ["parallel", "parallel", "parallel", "parallel",
                          "reduction", "reduction"]}
        ins(%x : tensor<1x16x56x56xf32>) outs(%zero : tensor<1x16x1x1xf32>) {
    ^bb0(%v: f32, %acc: f32):
      %r = arith.addf %acc, %v : f32
      linalg.yield %r : f32
    } -> tensor<1x16x1x1xf32>
    ```
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect",
                           "arith::ArithDialect"];
  let options = [
    Option<"maxPoints", "max-points", "int64_t", /*default=*/"4194304",
           "Most points of an op's iteration space at which the index "
           "arithmetic is evaluated; larger ops keep their reads">,
  ];
  let statistics = [
    Statistic<"numRewritten", "num-rewritten",
              "Ops whose reads of captured tensors became operands">,
  ];
}

def StarkUnitDimTransposesPass
    : Pass<"stark-unit-dim-transposes", "ModuleOp"> {
  let summary = "Take the unit dimensions that reshapes add or drop out of "
                "transposes";
  let description = [{
    Frontends move attention heads with a transpose between two reshapes:
    torch-mlir writes V for a batch of one as `expand_shape` to
    `1x512x16x128`, `linalg.transpose` to `1x16x512x128` and
    `collapse_shape` to `16x512x128` before the batch_matmul, and the
    output back the other way. The reshapes only add or drop unit
    dimensions, but they stand between the transpose and the contraction,
    so the transpose cannot be read as a permuted operand (or output) of
    the contraction and runs as a kernel of its own.

    This pass moves such reshapes to the far side of the transpose:

    - `collapse_shape(transpose(x))`, where each collapsed group holds at
      most one dimension that is not 1 and the transpose has no other
      user, becomes `transpose(collapse_shape(x))` on the dimensions that
      are not 1;
    - `transpose(expand_shape(y))`, where each expanded group holds at most
      one dimension that is not 1 and the expansion has no other user,
      becomes `expand_shape(transpose(y))`.

    The tensor dialect's reshape folders then merge the moved reshape with
    its neighbour (`collapse_shape(expand_shape(v))`). Nothing else
    changes: the transposes move the same elements.

    Before:

    ```mlir
    %e = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 16, 512, 128]
        : tensor<16x512x128xf16> into tensor<1x16x512x128xf16>
    %t = linalg.transpose ins(%e : tensor<1x16x512x128xf16>)
        outs(%init : tensor<1x512x16x128xf16>) permutation = [0, 2, 1, 3]
    ```

    After:

    ```mlir
    %t = linalg.transpose ins(%o : tensor<16x512x128xf16>)
        outs(%init : tensor<512x16x128xf16>) permutation = [1, 0, 2]
    %e = tensor.expand_shape %t [[0, 1], [2], [3]] output_shape [1, 512, 16, 128]
        : tensor<512x16x128xf16> into tensor<1x512x16x128xf16>
    ```
  }];
  let dependentDialects = ["linalg::LinalgDialect", "tensor::TensorDialect"];
  let statistics = [
    Statistic<"numMoved", "num-moved", "Reshapes moved across a transpose">,
  ];
}

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
    Ops that compute from constants alone (a weight transpose, a broadcast
    of a constant bias: compile-time work, see `--stark-fold-constants`;
    every value they read, operands and values their body captures from
    above, is constant) are not ranked at all, with a remark. Each hot op's remark says which
    share of the model's estimated time the hot ops up to it cover.

    Before (`profile=h200`):

    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                       outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    ```

    After:

    ```mlir
    %0 = linalg.matmul {stark.cost = #stark.cost<bound = "compute", bytes = 16777216,
                          op_class = "contraction", dtype = "f32",
                          flops = 2147483648, profile = "h200",
                          rank = 1, share = 1.0,
                          time_us = 32.05>}
           ins(...) outs(...) -> tensor<1024x1024xf32>
    ```
  }];
  let dependentDialects = ["linalg::LinalgDialect", "stark::StarkDialect"];
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
    Statistic<"numCompileTime", "num-compile-time",
              "Ops computing from constants alone (not ranked)">,
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
    `stark.problem = #stark.problem<entry, num_outputs, op, shapes, signature>`; the
    signature hashes its canonical form, so it is the same across runs and
    machines and for the tensor and memref forms of the same op.

    Problems are appended to the input module as nested modules
    `@stark_problem_<n>` (ops with the same signature share one), and the op
    gets `stark.problem = @stark_problem_<n>`. With `dir`, each problem is
    also written to `<dir>/<signature>.mlir`, ready for `stark-eval`.

    With `fuse` (the default), a hot op on tensors is outlined together
    with its *fusion group*: the connected chain of element-wise, broadcast
    and reduction linalg ops of its block whose intermediate results are
    used only inside the chain (a layer norm written as two reductions and
    an element-wise normalisation). The group is one problem: `@kernel`
    takes the chain's inputs, then its outputs; intermediates are
    `memref.alloc` temporaries; constant fills the ops accumulate into are
    cloned in; the problem's `stark.problem` says `fused_ops = N`. Every op
    of the group is tagged with the problem, and `--stark-substitute`
    replaces the whole group by one call. Where an intermediate is also
    used outside the chain (a residual stream: a layer norm's output feeds
    the next matmul and the next residual add), the chain is cut there and
    the hot op's group is the largest part around it that is one problem
    (the cut value becomes an output on one side, an input on the other). A
    chain that still cannot be one problem (an op outside the chain between
    two of its ops, more than 16 ops, no cut leaving two ops) gets a remark
    saying why, and the hot op is outlined alone.

    Also with `fuse`, a contraction (matmul, batch_matmul, a generic
    contraction, a convolution) owns the `linalg.fill` that initialises its
    output, on tensors and on memrefs, when nothing else reads the filled
    value or touches the buffer in between: the pair is one problem (op
    `linalg.fill + linalg.matmul`, `fused_ops = 2`), its kernel writes the
    output instead of reading it, and the remark says "outlined with the
    fill of its output". A fill with other users stays a problem of its own.

    With `fuse` and `fuse-epilogues` (both the default), a chain of
    element-wise ops with one output that consumes the result of such a
    contraction or convolution (bias, scale, residual add, activations,
    truncf) is outlined with it as one problem
    (`fused(linalg.matmul,linalg.generic)`; not for depthwise convolutions
    or pooling, and not when the problem does not read as a GEMM with an
    epilogue on f32, f16 or bf16 data: a remark says why),
    so that the GEMM's store stage computes the epilogue and the
    intermediate result never goes through memory. A chain with a reduction
    (`gemm + sigmoid + sum`) keeps the contraction out: its reduction is a
    kernel of its own. Contractions are outlined before other ops (after
    attention chains), so each takes its epilogue first; where its
    consumers connect to a chain too long to be one problem (a
    transformer's residual stream) or to none that is one, it takes the
    straight line of them that is (bias, then the residual add), and the
    norm after it is a problem of its own. Of two contractions feeding one
    chain (`silu(gate) * up`), the one computed last is its head.
    `fuse-epilogues=false` outlines the contraction and
    its epilogue as two problems, so that their winners can be compared
    with the fused kernel. With `fuse-epilogues`, a contraction (not a
    convolution) also takes the element-wise chains that compute its
    operands and nothing else (`relu(x) @ w`, a widened and scaled weight):
    its operand prologues, which the SIMT gemm applies as it loads; where
    the problem does not read so, a remark says why and the group is
    outlined without them. `--stark-pipeline` fuses epilogues (and
    prologues) only for the cuda target: the cpu target's schedules tile
    single contractions.
    Convolutions head their chain with `fuse-conv-epilogues` (the
    default): the direct `conv` family computes the chain in its store
    stage, and on the H200 the suite's three conv + bias/affine + ReLU
    chains ran 1.3-1.5x faster fused than as a convolution kernel and an
    element-wise kernel (bench/results/2026-12-02-h200-stop26*.md).
    `fuse-conv-epilogues=false` outlines them apart.

    With `fuse-epilogues` and `fuse-attention` (both the default),
    attention is one problem: a contraction (Q K^T), the element-wise ops
    and row reductions on its result, and the contraction of their result
    with V (`fused(linalg.batch_matmul,...,linalg.batch_matmul)`; with the
    permuting copies of Q, K and V it alone reads, and of its output, that
    move attention heads), where the
    problem reads as softmax(Q K^T * scale [+ mask]) V (scaling by
    constants, an additive mask tensor, the causal condition written as a
    select on `linalg.index`, and the softmax as linalg.softmax or as its
    max / exp / sum / divide ops; see docs/cuda-templates.md, "attention").
    The flash-style `attention` family never writes the scores to memory.
    On a GPU `profile` the chain is also kept only where that family takes
    it (not causal attention, for now). A chain that does not read so, or
    that no kernel takes, gets a remark saying why and is grouped as its
    ops otherwise are.

    With `cost-model` (the default), a chain is fused only where the cost
    model (stark/Analysis/FusionCost.h) estimates one kernel faster than one
    kernel per op on the hardware `profile`: one kernel moves only the
    chain's inputs and outputs and pays one launch, but runs no more
    threads than its narrowest op gives it (a reduction keeps each row in
    one block). A chain that reduces a large tensor to a few values and
    then scales the tensor by them (`x / sum(x)`) is left one problem per
    op on a GPU: one block would do the whole reduction. The remark says
    what the estimate was, fused or not.

    With `compare-unfused`, each op of a fused chain is also outlined alone
    (with the fill it owns); the chain's problem lists those problems in
    `stark.unfused = [@...]` and each op names its own in
    `stark.unfused_problem`. `--stark-search` searches them all and keeps
    the chain's kernel only where it is faster than the ops' winners (or
    baselines) together; otherwise the ops are tagged with their own
    problems and substituted one by one.

    Ops that cannot be outlined (dynamic shapes, values captured from the
    surrounding code) keep their place and get a remark saying why.
  }];
  let dependentDialects = ["func::FuncDialect", "memref::MemRefDialect",
                           "linalg::LinalgDialect", "stark::StarkDialect"];
  let options = [
    Option<"all", "all", "bool", /*default=*/"false",
           "Outline every linalg op, not only those marked stark.cost">,
    Option<"dir", "dir", "std::string", /*default=*/"\"\"",
           "Also write each problem to <dir>/<signature>.mlir">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Outline a hot op together with its chain of element-wise and "
           "reduction producers and consumers">,
    Option<"fuseEpilogues", "fuse-epilogues", "bool", /*default=*/"true",
           "With fuse, outline a contraction or convolution together with "
           "the chain of element-wise ops that consumes its result (and a "
           "contraction with those that compute its operands)">,
    Option<"fuseConvEpilogues", "fuse-conv-epilogues", "bool",
           /*default=*/"true",
           "With fuse-epilogues, convolutions head their chain too">,
    Option<"fuseAttention", "fuse-attention", "bool", /*default=*/"true",
           "With fuse-epilogues, outline softmax(Q K^T * scale + mask) V "
           "(two contractions and the softmax between them) as one problem">,
    Option<"costModel", "cost-model", "bool", /*default=*/"true",
           "With fuse, form a chain's problem only where the cost model "
           "estimates one kernel faster than one per op">,
    Option<"profile", "profile", "std::string", /*default=*/"\"host\"",
           "Hardware profile the cost model estimates on: h200, a100 or "
           "host">,
    Option<"compareUnfused", "compare-unfused", "bool", /*default=*/"false",
           "Also outline each op of a fused chain alone, so that "
           "stark-search compares the chain's kernel with its ops' winners">,
  ];
  let statistics = [
    Statistic<"numOutlined", "num-outlined", "Ops outlined">,
    Statistic<"numFused", "num-fused", "Ops outlined as part of a fused chain">,
    Statistic<"numProblems", "num-problems", "Distinct problems created">,
    Statistic<"numSkipped", "num-skipped", "Ops that could not be outlined">,
  ];
}

def StarkSearchPass : Pass<"stark-search", "ModuleOp"> {
  let summary = "Search verified, faster lowerings for each kernel problem";
  let description = [{
    For every kernel problem in the module (the nested `@stark_problem_<n>`
    modules of `--stark-outline`), runs the strategic search: the agent team
    proposes candidates, the evaluator verifies each against the problem and
    times it against the baseline in a worker process, until the budget is
    spent. The fastest verified candidate that beats the baseline is kept
    inside the problem module as `module @winner`, and the problem gets
    `stark.winner = #stark.winner<baseline_us, candidate, params, speedup, strategy,
    winner_us>`. A remark on each op of the problem says what was found, or
    why nothing was. `--stark-substitute` puts winners into the program.
    Every searched problem also gets `stark.baseline_us`; a problem with a
    winner or a baseline time is not searched again.

    A fused chain's problem outlined with `compare-unfused` (see
    `--stark-outline`) lists the problems of its ops alone: once all are
    searched, the chain keeps its problem only where its time (winner, else
    baseline) is not above the sum of its ops' times; otherwise its ops are
    tagged with their own problems. A remark on each op says which, with
    the times, and so does the chain's entry of the report (`unfused`).

    Problems are searched in order of expected gain (the `share` of the
    `stark.cost` of their ops times the headroom of the upstream lowering
    over the best known kernel of their class), not in program order; with
    `total-seconds`, every cost counts against one clock and after each
    problem the time left is split again by share over the problems still
    to search, one evaluation per problem kept back for coverage, never
    more than `seconds` for one problem. A problem whose turn does not come
    gets the expert's first-ranked candidate, evaluated once and kept where
    it verified and ran faster than the upstream lowering (`first pick`);
    otherwise its ops stay `upstream`. Each op's remark starts with
    `searched`, `first pick` or `upstream` and says why. A problem
    deduplicated by signature is searched once for all the ops it stands
    for.

    Progress goes to stderr while it runs (per problem: its ops, share and
    budget, then each candidate); at the end a model summary says how many
    problems found a verified winner, the share of the model's estimated
    time they cover and the estimated speedup of the whole model (Amdahl's
    law over the shares), also as a remark on the module with `summary`
    and in the report. `report=FILE` writes every node of every search as
    JSON.

    With `tuning-db=FILE`, a problem whose signature has a winner recorded
    for this `device` gets that winner without any evaluation (the remark
    and the report say "from tuning database"); winners recorded for other
    devices are judged first, as starting points of the search; every new
    winner is appended to the file. `retune` searches anyway.
  }];
  let dependentDialects = ["stark::StarkDialect"];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"auto\"",
           "Where candidates run: cpu, cuda, or auto (cuda when a device "
           "is usable, else cpu)">,
    Option<"agent", "agent", "std::string", /*default=*/"\"expert\"",
           "Agent team: expert (built in, offline), llm (a language model "
           "behind the roles, see the llm-* options and docs/llm.md) or "
           "replay (a recorded transcript, see `transcript`)">,
    Option<"transcript", "transcript", "std::string", /*default=*/"\"\"",
           "replay: the transcript to replay (a JSON list of proposals, or "
           "the JSONL transcript of an llm run); llm: record every request "
           "and reply to this file (JSONL)">,
    Option<"llmProvider", "llm-provider", "std::string", /*default=*/"\"\"",
           "Wire format of the model server: openai (chat completions) or "
           "anthropic (messages); default $STARK_LLM_PROVIDER, else openai">,
    Option<"llmUrl", "llm-url", "std::string", /*default=*/"\"\"",
           "Root URL of the model server (default $STARK_LLM_URL)">,
    Option<"llmModel", "llm-model", "std::string", /*default=*/"\"\"",
           "Model name (default $STARK_LLM_MODEL)">,
    Option<"llmKeyEnv", "llm-key-env", "std::string", /*default=*/"\"\"",
           "Name of the environment variable holding the API key (default "
           "$STARK_LLM_KEY_ENV; empty: no key). The key is never logged">,
    Option<"llmMaxTokens", "llm-max-tokens", "int64_t", /*default=*/"4096",
           "Longest reply, in tokens">,
    Option<"llmTimeout", "llm-timeout", "double", /*default=*/"120",
           "Seconds one request may take">,
    Option<"llmConnectTimeout", "llm-connect-timeout", "double",
           /*default=*/"10", "Seconds to establish a connection">,
    Option<"llmRetries", "llm-retries", "unsigned", /*default=*/"3",
           "Retries of a request on 429, 5xx, timeouts and refused "
           "connections">,
    Option<"llmBackoff", "llm-backoff", "double", /*default=*/"1",
           "Seconds before the first retry, doubled per retry (with jitter) "
           "unless the server sends Retry-After">,
    Option<"llmTokenBudget", "llm-token-budget", "int64_t", /*default=*/"0",
           "Tokens (prompt + completion) for the whole run; 0: no limit">,
    Option<"llmCostBudget", "llm-cost-budget", "double", /*default=*/"0",
           "Cost for the whole run, at llm-price-in/out; 0: no limit">,
    Option<"llmPriceIn", "llm-price-in", "double", /*default=*/"0",
           "Price per million prompt tokens">,
    Option<"llmPriceOut", "llm-price-out", "double", /*default=*/"0",
           "Price per million completion tokens">,
    Option<"llmPlannerTemperature", "llm-planner-temperature", "double",
           /*default=*/"0.7", "Sampling temperature of the planner">,
    Option<"llmCoderTemperature", "llm-coder-temperature", "double",
           /*default=*/"0.2", "Sampling temperature of the coder">,
    Option<"llmDebuggerTemperature", "llm-debugger-temperature", "double",
           /*default=*/"0.2", "Sampling temperature of the debugger">,
    Option<"llmPrompts", "llm-prompts", "std::string", /*default=*/"\"\"",
           "Folder with planner.md, coder.md and debugger.md to use instead "
           "of the built-in prompts">,
    Option<"llmConcurrency", "llm-concurrency", "unsigned", /*default=*/"0",
           "Requests to the model in flight at once (1 to 64): the search "
           "asks for the next proposals while candidates are judged. 0: "
           "$STARK_LLM_CONCURRENCY, else 1; a replay takes the "
           "transcript's">,
    Option<"llmFallback", "llm-fallback", "std::string", /*default=*/"\"none\"",
           "When the model cannot be used (unreachable, refused, budget "
           "spent): none (the pass fails, the IR stays as it was) or expert "
           "(the expert takes over, and a remark says so)">,
    Option<"budget", "budget", "unsigned", /*default=*/"12",
           "Candidates per problem">,
    Option<"seconds", "seconds", "double", /*default=*/"120",
           "Wall-clock budget per problem, in seconds">,
    Option<"totalSeconds", "total-seconds", "double", /*default=*/"0",
           "Wall-clock budget of the whole search (0: none), split across "
           "the problems by their share of the model's estimated time; no "
           "problem gets more than `seconds`">,
    Option<"evaluationPrior", "evaluation-prior", "double", /*default=*/"1",
           "With total-seconds: the seconds one evaluation is taken to cost "
           "until the run has measured one (what the plan keeps back for "
           "each problem's coverage and counts per candidate)">,
    Option<"summary", "summary", "bool", /*default=*/"false",
           "Emit the model's summary as a remark on the module (it always "
           "goes to the progress output and the report)">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "Seed of the search and of the generated inputs">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the search trees as JSON to this file">,
    Option<"profile", "profile", "std::string", /*default=*/"\"\"",
           "Hardware profile the strategies are grounded in (default: host "
           "for cpu, h200 for cuda)">,
    Option<"timeout", "timeout", "double", /*default=*/"60",
           "Seconds one candidate's evaluation may take, on top of the "
           "time the problem's own evaluation took (the allowance for the "
           "baseline it runs again)">,
    Option<"referenceTimeout", "reference-timeout", "double",
           /*default=*/"600",
           "Seconds the problem's own evaluation may take: the reference "
           "outputs of every trial input, computed once per problem and "
           "reused by every candidate, and the baseline's timing">,
    Option<"minSpeedup", "min-speedup", "double", /*default=*/"1.05",
           "A winner must be at least this much faster than the baseline. "
           "0 judges correctness only: the fastest verified candidate wins "
           "even when it is slower (to exercise outlining and substitution "
           "where timing is noisy; not with tuning-db)">,
    Option<"timingTrials", "timing-trials", "unsigned", /*default=*/"10",
           "Timed runs of baseline and candidate at least (more until the "
           "spread settles or the timing budget ends)">,
    Option<"trials", "trials", "unsigned", /*default=*/"5",
           "Correctness trials per candidate (seeds x input distributions)">,
    Option<"screen", "screen", "bool", /*default=*/"true",
           "Time each candidate after its first correctness trial and run "
           "the other trials only when it is fast enough to win (within 5% "
           "of the best verified so far, and of min-speedup); the others "
           "are reported as `slower`, guide the search and never win">,
    Option<"allowTf32", "allow-tf32", "bool", /*default=*/"false",
           "Let f32 contractions run on tf32 tensor cores (inputs rounded to "
           "10 mantissa bits); their outputs are then held to a tf32 bound "
           "(atol 4 * 2^-11 * sqrt(K), rtol 1e-2) instead of the f32 one, and "
           "the report says so">,
    Option<"sanitizeWinner", "sanitize-winner", "bool", /*default=*/"true",
           "On cuda, run each problem's winner under compute-sanitizer "
           "(memcheck, then racecheck) before it wins: a finding disqualifies "
           "it and the next best is checked (where compute-sanitizer is "
           "installed; a remark says when it is not)">,
    Option<"precompile", "precompile", "bool", /*default=*/"true",
           "On cuda, compile the candidates likely to be judged next (the "
           "next first picks, the expert's next points) on idle host cores "
           "while the evaluators work, into the compile cache their runners "
           "read; the report's evaluation.precompile says what it did">,
    Option<"progress", "progress", "bool", /*default=*/"true",
           "Print progress to stderr">,
    Option<"tuningDb", "tuning-db", "std::string", /*default=*/"\"\"",
           "Tuning database (JSON Lines, see docs/tuning.md): a winner "
           "recorded for a problem on this device is applied without "
           "searching; one recorded on another device is judged first, as a "
           "starting point; every new winner is appended">,
    Option<"retune", "retune", "bool", /*default=*/"false",
           "Search even where the tuning database has a winner for this "
           "device; the new winner is appended and replaces it">,
    Option<"device", "device", "std::string", /*default=*/"\"\"",
           "Device tuning records are keyed by (default: the one candidates "
           "run on, cpu:<host CPU> or cuda:<chip>:<device name>)">,
    Option<"devices", "devices", "unsigned", /*default=*/"1",
           "CUDA devices of this host to evaluate on (CUDA_VISIBLE_DEVICES "
           "0..devices-1 of the ones visible); the cpu target has one">,
    Option<"workersPerDevice", "workers-per-device", "unsigned",
           /*default=*/"1",
           "Evaluation workers per device. With more than one worker in "
           "all, candidates are compiled and verified in parallel, problems "
           "are searched in parallel, timing stays one at a time per device, "
           "and the fastest candidates are timed again on device 0 before a "
           "winner is chosen (docs/distributed.md)">,
    Option<"mpi", "mpi", "bool", /*default=*/"false",
           "Evaluate on the other ranks of the MPI job this process is rank 0 "
           "of (each runs `stark-eval --serve-mpi`); a rank that stops "
           "answering is dropped and its candidate judged elsewhere">,
    Option<"mpiGrace", "mpi-grace", "double", /*default=*/"10",
           "Seconds an MPI rank may take beyond a candidate's time limit "
           "before it is taken for lost">,
  ];
  let statistics = [
    Statistic<"numProblems", "num-problems", "Problems searched">,
    Statistic<"numFromTuningDb", "num-from-tuning-db",
              "Problems whose winner came from the tuning database">,
    Statistic<"numCandidates", "num-candidates", "Candidates evaluated">,
    Statistic<"numWinners", "num-winners", "Problems with a verified winner">,
  ];
}

def StarkSubstitutePass : Pass<"stark-substitute", "ModuleOp"> {
  let summary = "Replace ops by the verified winners of their problems";
  let description = [{
    Every op tagged `stark.problem = @P` whose problem `P` has a winner is
    replaced by a call of the winner's function, copied into the module as
    a private function `@stark_kernel_<signature>`. Memref ops become the
    call; tensor ops get their operands as buffers
    (`bufferization.to_buffer`), a fresh output buffer (initialised from the
    init operand when the op reads it), the call, and
    `bufferization.to_tensor` of the outputs. The call carries
    `stark.winner = {candidate, signature, speedup, strategy}` and a remark
    reports the substitution. Ops whose problem has no winner are left
    untouched. Problem modules are removed afterwards unless
    `keep-problems`.

    A CUDA C++ winner (a function with `stark.cuda`) is compiled with NVRTC
    for `cuda-chip` and becomes `gpu.binary @stark_kernel_<signature>_bin`
    (NVRTC's cubin, or its PTX with `cuda-format=ptx`) plus the host
    function `@stark_kernel_<signature>`, which passes the aligned pointer
    of each memref argument to one `gpu.launch_func` per launch, in order,
    on one stream; the module becomes a `gpu.container_module`:

    ```mlir
    gpu.binary @stark_kernel_0123456789abcdef_bin
        [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, bin = "...">]
    func.func private @stark_kernel_0123456789abcdef(%x: memref<16xf32>, %y: memref<16xf32>) {
      %px = memref.extract_aligned_pointer_as_index %x : memref<16xf32> -> index
      ...
      %t0 = gpu.wait async
      %t1 = gpu.launch_func async [%t0] @stark_kernel_0123456789abcdef_bin::@k
          blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
          args(%ptr_x : !llvm.ptr, %ptr_y : !llvm.ptr)
      gpu.wait [%t1]
      return
    }
    ```

    `gpu-to-llvm` lowers it with its default options. When NVRTC cannot
    be loaded or the source does not compile, the op is left as it is,
    with a remark saying why; a malformed `stark.cuda` is an error.
  }];
  let dependentDialects = ["arith::ArithDialect",
                           "bufferization::BufferizationDialect",
                           "func::FuncDialect", "gpu::GPUDialect",
                           "LLVM::LLVMDialect", "memref::MemRefDialect",
                           "NVVM::NVVMDialect", "nvgpu::NVGPUDialect",
                           "stark::StarkDialect"];
  let options = [
    Option<"keepProblems", "keep-problems", "bool", /*default=*/"false",
           "Keep the problem modules in the output">,
    Option<"cudaChip", "cuda-chip", "std::string", /*default=*/"\"\"",
           "Chip CUDA C++ winners are compiled for (default: the winner's "
           "recorded `chip`, else sm_90a)">,
    Option<"cudaFormat", "cuda-format", "std::string",
           /*default=*/"\"cubin\"",
           "What the gpu.binary of a CUDA C++ winner holds: cubin (the code "
           "that was verified) or ptx (compiled by the driver on load)">,
  ];
  let statistics = [
    Statistic<"numSubstituted", "num-substituted", "Ops replaced">,
  ];
}

def StarkApplyTuningSpecPass : Pass<"stark-apply-tuning-spec", "ModuleOp"> {
  let summary = "Apply a tuning spec: recorded winners replace their ops";
  let description = [{
    Applies a tuning spec (`stark-tune export`, see docs/tuning.md): a
    `transform.with_named_sequence` module whose `@__transform_main` runs
    `transform.foreach_match` over the program with one matcher per
    recorded problem signature (`transform.stark.match_signature`) and an
    action that substitutes the recorded winner
    (`transform.stark.apply_winner`). No search runs and no candidate is
    evaluated, so it works on a machine without a GPU; the result is the IR
    `--stark-pipeline` produced where the records were searched.

    ```mlir
    // Before, with a spec that holds a winner for this matmul's signature:
    %0 = linalg.matmul ins(%a, %b : ...) outs(%c : ...) -> tensor<128x96xf32>
    // After:
    %out = memref.alloc() : memref<128x96xf32>
    ...
    call @stark_kernel_0123456789abcdef(%ab, %bb, %out) {stark.winner = {...}}
    %0 = bufferization.to_tensor %out restrict writable : ...
    ```
    A CUDA C++ winner is compiled into `gpu.binary` with NVRTC, as
    `--stark-substitute` does; where NVRTC is missing the op stays, with a
    remark.
  }];
  let dependentDialects = ["arith::ArithDialect",
                           "bufferization::BufferizationDialect",
                           "func::FuncDialect", "gpu::GPUDialect",
                           "LLVM::LLVMDialect", "memref::MemRefDialect",
                           "NVVM::NVVMDialect", "nvgpu::NVGPUDialect",
                           "stark::StarkDialect",
                           "transform::TransformDialect"];
  let options = [
    Option<"spec", "spec", "std::string", /*default=*/"\"\"",
           "The tuning spec to apply (.mlir)">,
  ];
}

#endif // STARK_TRANSFORMS_PASSES
