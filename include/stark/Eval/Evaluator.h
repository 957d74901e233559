//===- Evaluator.h - Verify and time a candidate against a problem -*- C++
//-*-===//
//
// The target-independent evaluation protocol (docs/evaluation.md): the
// problem itself, lowered by the plain upstream pipeline, is the reference
// and the baseline; the candidate must match it on several seeds and input
// distributions before it is timed, interleaved with the baseline, in the
// same process. The result is plain data with a JSON form, so a worker
// process can hand it back and the search can read it.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_EVALUATOR_H
#define STARK_EVAL_EVALUATOR_H

#include "stark/Eval/Compare.h"
#include "stark/Eval/EvalEnums.h"
#include "stark/Eval/StepTimes.h"
#include "stark/Eval/Timing.h"
#include "stark/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/JSON.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::stark {

class CandidateRunner;

struct EvalOptions {
  /// Seed of all generated inputs; trial t uses mixSeed(seed, t).
  uint64_t seed = 0;
  /// Correctness trials; trial t uses distribution t mod 5 (uniform,
  /// normal, large, tiny, negative), each with fresh inputs.
  unsigned correctnessTrials = 5;
  /// A speedup above this triggers `extraTrials` more correctness trials
  /// (new seeds) and the flag "speedup_above_threshold".
  double suspiciousSpeedup = 10.0;
  unsigned extraTrials = 10;
  /// On the cpu target the f32 reference of an f16/bf16 problem runs the
  /// plain lowering's loops; above this many loop iterations it would take
  /// longer than the evaluation, so the problem is judged by its baseline
  /// alone (flag "no_high_precision_reference", with a note). On another
  /// target a problem of up to 2^24 iterations gets its high-precision
  /// reference on the host (another lowering than the baseline's), a larger
  /// one on the target itself, uncapped.
  uint64_t maxHighPrecisionIterations = uint64_t(1) << 28;
  /// An f32 problem with a reduction also gets a high-precision reference:
  /// the problem promoted to f64 (where it runs: as above). An output
  /// element passes when it is within the f32 bound of the baseline or of
  /// this reference.
  bool f64Reference = true;
  /// The reference store (References.h): a directory that keeps the
  /// baseline's and the high-precision reference's outputs of every trial
  /// input. Empty: no store; every evaluation runs its own references.
  std::string referenceDir;
  /// Compute the references and store them (the problem's evaluation
  /// against itself). Otherwise the store is only read: a trial input whose
  /// outputs are stored does not run the references again.
  bool writeReferences = false;
  /// The most a writing evaluation stores, in bytes; the outputs of trial
  /// inputs beyond it are not stored and each evaluation computes them.
  uint64_t maxStoredReferenceBytes = uint64_t(8) << 30;
  /// The user allows tf32 tensor cores for f32 contractions: an f32 output
  /// of a problem with a reduction is held to getTf32Tolerance instead of
  /// the f32 bound; the result gets the flag "tf32_tolerance" and a note
  /// with both bounds.
  bool allowTf32 = false;
  /// Time the candidate against the baseline after it verifies.
  bool measureTime = true;
  /// Screening (with measureTime): when positive, the candidate is timed
  /// right after its first correctness trial, and when its speedup over
  /// the baseline is below this the evaluation ends there with the status
  /// `slower`: it cannot win, so it is not verified further and may never
  /// be substituted. A candidate at or above it goes through every trial.
  /// 0: the full protocol for every candidate.
  double screenBelowSpeedup = 0;
  /// After the trials of getAllDistributions, one trial with NaN, +-inf,
  /// -0, denormals and -inf masks in the float inputs (Inputs.h).
  bool specialValues = true;
  /// Run the candidate under compute-sanitizer with this tool ("memcheck",
  /// "racecheck", ...; cuda, in a worker): a finding makes the candidate
  /// wrong. Empty: not.
  std::string sanitizer;
  /// The entry of a whole program on tensors given as problem and
  /// candidate (TensorProgram.h); empty: the program's only public
  /// function. Unused for kernel problems, which name their entry.
  std::string entry;
  /// Give a whole program's weights without data (ElidedWeights.h)
  /// deterministic synthesised ones instead of refusing it; the result gets
  /// the flag "synthesized_weights" and a note naming them.
  bool synthesizeElidedWeights = false;
  TimingOptions timing;
  /// Called when the evaluator enters a new phase ("compiling candidate",
  /// "running candidate: trial 2 (large, seed ...)"); the worker prints
  /// these so a crash or hang can be placed. Not serialised.
  std::function<void(StringRef)> onPhase;
};

/// The kind of an evaluation phase, as `phase_seconds` sums it: its text
/// before any ':' ("running the candidate: trial 2 (...)" is "running the
/// candidate").
inline StringRef getPhaseKind(StringRef phase) {
  return phase.split(':').first.rtrim();
}

llvm::json::Value toJSON(const EvalOptions &options);
bool fromJSON(const llvm::json::Value &value, EvalOptions &options,
              llvm::json::Path path);

struct EvalResult {
  EvalStatus status = EvalStatus::Error;
  std::string message;
  std::string target;
  /// The phase the evaluation was in when it stopped (worker failures).
  std::string phase;

  /// The worst element over all correctness trials, with the trial's
  /// distribution and seed.
  std::optional<WorstElement> worst;
  std::string worstDistribution;
  uint64_t worstSeed = 0;
  int64_t mismatches = 0; // in the failing trial

  Tolerance tolerance;
  std::string toleranceKind; // element kind the tolerance is for
  int64_t reductionLength = 1;

  unsigned correctnessTrials = 0; // trials that ran and passed or failed
  /// Runs of the candidate in those trials: two a trial (the second with
  /// finite prefills, rescheduled), one under compute-sanitizer.
  unsigned candidateRuns = 0;
  std::vector<uint64_t> seeds;
  std::vector<std::string> distributions;
  bool highPrecisionReference = false;
  /// Runs of the baseline and of the high-precision reference made to get
  /// reference outputs (the baseline's timed runs are not counted), and
  /// trial inputs whose reference outputs came from the store instead.
  unsigned referenceRuns = 0;
  unsigned referencesReused = 0;

  std::optional<TimingStats> baselineTime;
  std::optional<TimingStats> candidateTime;
  double speedup = 0; // baseline median / candidate median; 0 if untimed

  /// Notes for the reader and the search: "speedup_above_threshold",
  /// "extra_trials_passed", "no_high_precision_reference",
  /// "reference_non_finite", "timing_budget_exhausted", ...
  std::vector<std::string> flags;
  /// Sentences for a human reader (why there is no high-precision
  /// reference, where the reference itself is not finite, ...).
  std::vector<std::string> notes;
  /// Last lines of the worker's output, for crashes and timeouts.
  std::string logTail;

  /// Where the judge's time went: seconds per kind of phase ("compiling
  /// the baseline", "running the candidate", "timing baseline and
  /// candidate", ...: a phase's name up to its first ':'), in the order
  /// the phases first began.
  StepTimes phaseSeconds;
  /// The candidate's runner's own account of its steps inside those phases
  /// ("making the arguments", "uploading the arguments", "running the
  /// candidate", "reading back and checksumming", "timed rounds", ...):
  /// where "running the candidate" and the timing went. Informational: the
  /// runner is not trusted with anything that decides the verdict.
  StepTimes runnerSeconds;
  /// The whole evaluation as its caller saw it (starting the worker
  /// process included); 0 when it ran in the caller's process.
  double wallSeconds = 0;

  bool isOk() const { return status == EvalStatus::Ok; }
  bool hasFlag(StringRef flag) const;
};

llvm::json::Value toJSON(const EvalResult &result);
bool fromJSON(const llvm::json::Value &value, EvalResult &result,
              llvm::json::Path path);

/// Multi-line, human-readable form (what stark-eval prints).
std::string formatEvalResult(const EvalResult &result);

/// Starts the runner of a candidate (CandidateRunner.h), compiling it
/// there; on failure sets the status (compile error, crash, error) and the
/// message.
using RunnerFactory = std::function<FailureOr<std::unique_ptr<CandidateRunner>>(
    EvalStatus &status, std::string &error)>;

/// Evaluates `candidate` against `problem` on `target`. This process is the
/// judge: it makes the inputs, runs the references, compares and decides.
/// The candidate runs where `startRunner` puts it (a process of its own,
/// see RunnerProcess.h); without a factory, in this process, compiled
/// here (tests and debugging only: the candidate then shares the judge's
/// memory). Both modules must live in the same context; they are cloned,
/// never changed. A high-precision reference (the problem promoted to
/// f32) runs on a CPU target the evaluator creates itself.
EvalResult evaluateCandidate(Target &target, ModuleOp problem,
                             ModuleOp candidate, const EvalOptions &options,
                             const RunnerFactory &startRunner = nullptr);

/// The dialects a problem or candidate may use: func, arith, math, memref,
/// scf, cf, affine, linalg, vector, index, ub, llvm, gpu, nvgpu, nvvm, and
/// for whole programs tensor, bufferization and ml_program.
void registerEvalDialects(DialectRegistry &registry);

/// Parses both sources in a fresh context, creates `targetName` and
/// evaluates. A problem without stark.problem is a whole program on
/// tensors: it and the candidate are bufferized first (TensorProgram.h). Parse
/// failures of the candidate are compile errors carrying the diagnostics; of
/// the problem, errors. `problemName` and `candidateName` are the buffer names
/// diagnostics mention.
EvalResult evaluateSources(StringRef problemSource, StringRef problemName,
                           StringRef candidateSource, StringRef candidateName,
                           StringRef targetName, const EvalOptions &options,
                           const RunnerFactory &startRunner = nullptr);

/// The parsing half of evaluateSources, shared with the runner process:
/// parses both sources into `context` and prepares whole programs. On
/// failure `result` holds the status and the message.
LogicalResult
parseEvalSources(StringRef problemSource, StringRef problemName,
                 StringRef candidateSource, StringRef candidateName,
                 StringRef entry, bool synthesizeElidedWeights,
                 MLIRContext &context, OwningOpRef<ModuleOp> &problem,
                 OwningOpRef<ModuleOp> &candidate, EvalResult &result);

} // namespace mlir::stark

#endif // STARK_EVAL_EVALUATOR_H
