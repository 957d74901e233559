//===- TensorProgram.h - A whole program on tensors as a problem -*- C++
//-*-===//
//
// stark-eval judges kernel problems: an entry on memrefs, outputs last. A
// user who wants to check a whole model against what stark-opt made of it
// (`model.mlir` against `model.opt.mlir`) has programs on tensors instead:
// an entry with tensor arguments and results, weights as constants or
// ml_program globals, winners called through bufferization casts. This
// turns such a program into a problem: bufferized with function boundaries,
// the results turned into output arguments, and stark.problem added.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_TENSORPROGRAM_H
#define STARK_EVAL_TENSORPROGRAM_H

#include "stark/Eval/Evaluator.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::stark {

/// Dialects and bufferization models a program on tensors may need:
/// tensor, bufferization, ml_program and the external models of one-shot
/// bufferization for arith, linalg, tensor, scf, cf, func and ml_program.
void registerTensorProgramDialects(DialectRegistry &registry);

/// Whether `module` is not a problem (no stark.problem attribute) but a
/// program: a caller asks prepareTensorProgram to make it one.
bool isProgramWithoutProblem(ModuleOp module);

/// Makes the program `module` a problem in place. The entry is `entry`, or
/// the program's only public function with a body; its arguments and
/// results must be statically shaped tensors (or memrefs) of element types
/// the evaluator generates. The module is bufferized (one-shot, function
/// boundaries, identity layouts), the entry's results become output
/// arguments after its inputs, buffers are deallocated, and
/// `stark.problem = #stark.problem<entry, num_outputs = #results>` is set.
/// Weights without data (ElidedWeights.h) are synthesised when
/// `synthesizeElidedWeights` is set; otherwise the program is refused with
/// an error on the first one's holder. Fails with a sentence in `error`.
LogicalResult prepareTensorProgram(ModuleOp module, StringRef entry,
                                   bool synthesizeElidedWeights,
                                   std::string &error);

/// Flags `result` "synthesized_weights" with a note naming them where the
/// program `problem` or `candidate` holds synthesised weights.
void noteSynthesizedWeights(ModuleOp problem, ModuleOp candidate,
                            EvalResult &result);

} // namespace mlir::stark

#endif // STARK_EVAL_TENSORPROGRAM_H
