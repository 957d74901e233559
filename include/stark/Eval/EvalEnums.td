//===- EvalEnums.td - Enums of the evaluator ---------------*- tablegen -*-===//
//
// The verdicts of the evaluator and the input distributions of its trials,
// with their spellings in reports and the worker protocol.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_ENUMS
#define STARK_EVAL_ENUMS

include "stark/Analysis/StarkEnumBase.td"

def Stark_EvalStatus : Stark_Enum<"EvalStatus", "evaluation status", [
  // verified (and timed, unless timing was off)
  I32EnumAttrCase<"Ok", 0, "ok">,
  // ran, but an output (or an input) differs from the reference
  I32EnumAttrCase<"Wrong", 1, "wrong">,
  // does not parse, verify, match the signature, lower or JIT
  I32EnumAttrCase<"CompileError", 2, "compile_error">,
  // the run failed: signal, abort, illegal address, no result
  I32EnumAttrCase<"Crash", 3, "crash">,
  // did not finish within the worker's time limit
  I32EnumAttrCase<"Timeout", 4, "timeout">,
  // could not evaluate at all: bad problem, target unavailable
  I32EnumAttrCase<"Error", 5, "error">,
  // screened out: right on its first trial and its timed runs, but slower
  // than it had to be to win (EvalOptions::screenBelowSpeedup), so not
  // verified further; it may never be substituted
  I32EnumAttrCase<"Slower", 6, "slower">
]>;

// The distributions of trial inputs, in the order the evaluator cycles
// through them (see Inputs.h for their ranges).
def Stark_Distribution : Stark_Enum<"Distribution", "input distribution", [
  I32EnumAttrCase<"Uniform", 0, "uniform">,
  I32EnumAttrCase<"Normal", 1, "normal">,
  I32EnumAttrCase<"Large", 2, "large">,
  I32EnumAttrCase<"Tiny", 3, "tiny">,
  I32EnumAttrCase<"Negative", 4, "negative">,
  // Not cycled through: the one trial of special values (Inputs.h).
  I32EnumAttrCase<"Special", 5, "special">
]>;

#endif // STARK_EVAL_ENUMS
