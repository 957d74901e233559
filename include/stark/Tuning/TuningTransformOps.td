//===- TuningTransformOps.td - Transform ops of tuning specs -*- tablegen -*-===//
//
// The stark extension of the transform dialect: what a tuning spec's
// `foreach_match` matchers and actions are made of.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TUNING_TUNINGTRANSFORMOPS_TD
#define STARK_TUNING_TUNINGTRANSFORMOPS_TD

include "stark/Dialect/StarkAttrs.td"
include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def Stark_MatchSignatureOp : Op<Transform_Dialect, "stark.match_signature",
    [SingleOpMatcher, MatchOpInterface,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Matches an op whose kernel problem has the given signature";
  let description = [{
    Succeeds when the payload op, outlined as `--stark-outline` would
    outline it into a problem of `fused_ops` linalg ops, gets the kernel
    problem signature `signature`. With `fused_ops` > 1 the op is a
    contraction with the fill of its output, or the last op of a fused
    chain (so the chain is matched once, after all its ops were seen).
    Ops of substituted kernels (`@stark_kernel_*`) and of problem modules
    are never matched. Produces a silenceable failure otherwise.

    ```mlir
    transform.stark.match_signature %op, "0123456789abcdef0123456789abcdef"
        {fused_ops = 2 : i64} : !transform.any_op
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$operand_handle,
                       StrAttr:$signature,
                       DefaultValuedAttr<I64Attr, "1">:$fused_ops);
  let assemblyFormat =
      "$operand_handle `,` $signature attr-dict `:` type($operand_handle)";
  let extraClassDeclaration = SingleOpMatcher.extraDeclaration;
  let cppNamespace = "::mlir::stark";
}

def Stark_ApplyWinnerOp : Op<Transform_Dialect, "stark.apply_winner",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>,
     NoTerminator, SingleBlock]> {
  let summary = "Replaces an op by a recorded winner of its kernel problem";
  let description = [{
    Outlines each payload op into its kernel problem, checks that the
    problem has the signature of `problem`, and substitutes the winner held
    in the region (with `winner`'s provenance) exactly as
    `--stark-substitute` does after a search: the op, and the fill or chain
    its problem owns, become a call of `@stark_kernel_<signature>`. A CUDA
    C++ winner is compiled into `gpu.binary` on the way. Consumes the
    handle. An op whose problem has another signature is a silenceable
    failure; a malformed winner a definite one.

    ```mlir
    transform.stark.apply_winner %op {
        problem = #stark.problem<entry = "kernel", num_outputs = 1, ...>,
        winner = #stark.winner<candidate = 4, speedup = 3.1, ...>}
        : !transform.any_op {
      module {
        func.func @kernel(...) { ... }
      }
    }
    ```
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       Stark_ProblemAttr:$problem,
                       Stark_WinnerAttr:$winner);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$target attr-dict `:` type($target) $body";
  let hasVerifier = 1;
  let cppNamespace = "::mlir::stark";
  let extraClassDeclaration = [{
    /// The winner module held in the region.
    ::mlir::ModuleOp getWinnerModule();
  }];
}

#endif // STARK_TUNING_TUNINGTRANSFORMOPS_TD
