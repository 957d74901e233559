//===- CudaSchedules.h - Transform-dialect schedules for the GPU -*- C++
//-*-===//
//
// The transform-dialect part of the CUDA candidate space. A kernel problem
// (one linalg op on memrefs) is rewritten by a transform script into a
// gpu.launch: block tiles become an scf.forall mapped to blocks, thread
// tiles a nested scf.forall mapped to threads, operands of contractions are
// staged through shared memory (cooperative, vectorised copies between
// barriers), each thread keeps a register tile of the result that stays in
// registers across the K loop, the innermost K steps are unrolled and every
// thread-level op is vectorised. The cuda target lowers the result like any
// gpu.launch candidate. docs/cuda-schedules.md describes the families.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_CUDASCHEDULES_H
#define STARK_STRATEGIES_CUDASCHEDULES_H

#include "stark/Analysis/HardwareProfile.h"
#include "stark/Strategies/CandidateSpace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir::stark {

/// One schedule: a family and its parameters by name.
///  - "td-matmul" (contractions with one m, one n and one k loop, no batch
///    loop, one element type): bm, bn, bk (block tile), tm, tn (register tile
///    per thread), ku (K steps per unrolled contraction), promote (0/1: stage A
///    and B in shared memory);
///  - "td-elementwise" (all loops parallel): tx (threads along the innermost
///    loop), ty (threads along the next loop), vec (innermost elements per
///    thread);
///  - "td-reduce" (some loop parallel, some reduced): threads (outputs per
///    block, one per thread), vec (innermost reduced elements per step).
struct CudaSchedule {
  std::string family;
  std::map<std::string, int64_t> params;

  int64_t get(StringRef name) const;
  std::map<std::string, std::string> toParams() const;
  std::string describe() const;
};

/// The schedule families, in the order the search tries them.
ArrayRef<StringRef> getCudaScheduleFamilies();

/// Registers the dialects and transform extensions the schedules need.
void registerCudaScheduleDialects(DialectRegistry &registry);

/// Schedules worth trying for the single linalg op of `problem`, best guesses
/// first, every one within the profile's threads and shared memory per
/// block. Empty when no family applies (the reason in `whyNot`).
std::vector<CudaSchedule> enumerateCudaSchedules(ModuleOp problem,
                                                 const HardwareProfile &profile,
                                                 std::string &whyNot);

/// The transform script of `schedule` for the op of `problem`: a module
/// holding `transform.named_sequence @__transform_main`, built in the
/// problem's context. Fails when the family does not apply or the
/// parameters do not fit the op (tiles that do not divide its loops, too
/// many threads).
FailureOr<OwningOpRef<ModuleOp>>
buildCudaTransformScript(ModuleOp problem, const CudaSchedule &schedule,
                         std::string &error);

/// The same script as text.
FailureOr<std::string> renderCudaTransformScript(ModuleOp problem,
                                                 const CudaSchedule &schedule,
                                                 std::string &error);

/// Applies `schedule` to a clone of `problem`: the candidate module keeps
/// the entry function and its arguments; its body is one gpu.launch whose
/// shared buffers are workgroup attributions. The entry carries a
/// `stark.schedule` attribute (family, parameters and the script).
FailureOr<OwningOpRef<ModuleOp>> applyCudaSchedule(ModuleOp problem,
                                                   const CudaSchedule &schedule,
                                                   std::string &error);

/// The space of the schedule families alone (CandidateSpaces.cpp), or null
/// with the reason. The problem must stay alive while the space is used.
std::unique_ptr<CandidateSpace>
createCudaScheduleSpace(ModuleOp problem, const HardwareProfile &profile,
                        std::string &whyNot);

} // namespace mlir::stark

#endif // STARK_STRATEGIES_CUDASCHEDULES_H
