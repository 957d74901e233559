//===- Evaluation.h - One evaluation of a candidate (private) ---*- C++ -*-===//
//
// The judge's side of one evaluation, shared by the files that make it up:
// Evaluator.cpp (the protocol: compile, trials, the candidate's runs),
// EvaluationReferences.cpp (the baseline's and the high-precision
// reference's outputs, the reference store) and EvaluationChecks.cpp (the
// comparison of outputs, their conditioning, the timed runs' checks).
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_EVAL_EVALUATION_H
#define STARK_LIB_EVAL_EVALUATION_H

#include "stark/Eval/CandidateRunner.h"
#include "stark/Eval/Compare.h"
#include "stark/Eval/Evaluator.h"
#include "stark/Eval/Inputs.h"
#include "stark/Eval/ProblemAnalysis.h"
#include "stark/Eval/References.h"
#include "stark/Target/DeferredTarget.h"
#include "stark/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Debug.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace mlir::stark::detail {

/// `buffers` with every float element kind narrower than `wide` converted
/// to `wide` (exactly: every narrower float is representable).
std::vector<HostBuffer> widenFloats(ArrayRef<HostBuffer> buffers,
                                    ElementKind wide);

/// A kernel together with the argument storage it runs on.
struct Runner {
  std::unique_ptr<CompiledKernel> kernel;
  std::unique_ptr<ArgBuffers> args;

  /// Uploads `in`, runs once, downloads the outputs into `out` (one buffer
  /// per argument; the inputs' are placeholders: reading back a weight of
  /// hundreds of megabytes after every reference run cost as much as the
  /// run).
  LogicalResult run(ArrayRef<HostBuffer> in, std::vector<HostBuffer> &out,
                    std::string &error) {
    if (failed(args->upload(in, error)) || failed(kernel->run(*args, error)))
      return failure();
    return downloadOutputs(*args, in, out, error);
  }
};

class Evaluation {
public:
  /// `deferred`: `target` when it is created at its first use.
  Evaluation(Target &target, ModuleOp problem, ModuleOp candidate,
             const EvalOptions &options, const RunnerFactory &startRunner,
             EvalResult &result, DeferredTarget *deferred = nullptr)
      : target(target), problem(problem), candidate(candidate),
        options(options), startRunner(startRunner), result(result),
        deferred(deferred) {}

  void run();
  /// Adds the time since the current phase began to its kind's total.
  void notePhaseEnd();

private:
  void phase(const std::string &text) {
    notePhaseEnd();
    DEBUG_WITH_TYPE("stark-eval", llvm::dbgs() << "phase: " << text << "\n");
    result.phase = text;
    StringRef kind = getPhaseKind(text);
    auto it = llvm::find_if(result.phaseSeconds,
                            [&](const auto &p) { return p.first == kind; });
    currentPhase = it - result.phaseSeconds.begin();
    if (it == result.phaseSeconds.end())
      result.phaseSeconds.emplace_back(kind.str(), 0.0);
    if (options.onPhase)
      options.onPhase(text);
  }

  void finish(EvalStatus status, std::string message) {
    DEBUG_WITH_TYPE("stark-eval",
                    llvm::dbgs() << "verdict: " << stringifyEvalStatus(status)
                                 << ": " << message << "\n");
    result.status = status;
    result.message = std::move(message);
  }
  void addFlag(StringRef flag) {
    if (!result.hasFlag(flag))
      result.flags.push_back(flag.str());
  }

  bool prepare();
  /// Creates a deferred target (DeferredTarget.h) before the judge's first
  /// use of the device, in a phase of its own; false, saying why, when it
  /// cannot be.
  bool ensureJudgeTarget(std::string &error);
  bool ensureBaseline();
  bool prepareCandidate();
  bool getReferences(ArrayRef<HostBuffer> host, Distribution dist,
                     uint64_t seed, StringRef where,
                     std::vector<HostBuffer> &expected,
                     std::vector<HostBuffer> &highOut);
  bool computeReferences(ArrayRef<HostBuffer> host, Distribution dist,
                         uint64_t seed, StringRef where,
                         std::vector<HostBuffer> &expected,
                         std::vector<HostBuffer> &highOut);
  bool runCandidate(ArrayRef<HostBuffer> host, ArrayRef<HostBuffer> expected,
                    const std::vector<HostBuffer> *highOut, Distribution dist,
                    uint64_t seed, bool garbagePrefill, StringRef where);
  /// Compares the checksums of the inputs the candidate was given with
  /// those after its run.
  bool checkInputsKept(ArrayRef<uint64_t> sent, ArrayRef<uint64_t> got,
                       StringRef where);
  bool isTf32Bound(ElementKind kind, int64_t reductionLength) const {
    return options.allowTf32 && kind == ElementKind::F32 && reductionLength > 1;
  }
  Tolerance getOutputTolerance(ElementKind kind, unsigned argIndex) const;
  /// f16/bf16 candidates are held to the high-precision reference alone;
  /// the problem itself, evaluated as its own candidate, to itself.
  bool isJudgedByHighPrecision() const {
    return analysis.isLowPrecision && !isProblemItself;
  }
  void prepareHigh();
  bool compileHigh(std::string &error);
  /// The problem promoted to highKind, compiled into `into`; with
  /// `roundResults` every op's narrow result is rounded (promoteFloats).
  bool compileWide(Runner &into, bool roundResults, std::string &error);
  bool ensureHigh();
  void openStore();
  bool isReading() const { return store && !store->isWritable(); }
  bool isWriting() const { return store && store->isWritable(); }
  void saveReferences(uint64_t seed, Distribution dist,
                      const std::vector<HostBuffer> *expected,
                      const std::vector<HostBuffer> *highOut);
  bool runHigh(ArrayRef<HostBuffer> host, std::vector<HostBuffer> &highOut,
               StringRef where);
  bool runTrial(unsigned trial);
  bool runTrial(Distribution dist, uint64_t seed, std::string where);
  /// Trials [begin, end) of getAllDistributions' cycle.
  bool runTrials(unsigned begin, unsigned end);
  /// The trial of NaN, +-inf, -0 and denormals, when the options ask.
  bool runSpecialTrial();
  /// Above EvalOptions::suspiciousSpeedup, the extra trials after the
  /// first `trials`; otherwise their references are stored for others.
  bool checkSuspiciousSpeedup(unsigned trials);
  /// Ends the candidate's runner; under a sanitizer, with its report.
  bool endRunner();
  bool storeExtraReferences(unsigned first);
  /// The timing sets of an evaluation, the references of each and the
  /// checksums of its inputs.
  struct TimedRunReferences {
    std::vector<TimingSet> sets;
    std::vector<std::vector<HostBuffer>> expected, highOut;
    std::vector<std::vector<uint64_t>> inputSums;
  };
  bool timeAndCheck();
  /// "timed run 7 (normal, seed ...)".
  std::string describeTimedRun(const TimedRunReferences &refs,
                               const TimedRunsOutcome &timing,
                               unsigned run) const;
  /// Whether a run left the inputs as they were made (checksums in
  /// argument order); a changed one ends the evaluation as wrong.
  bool checkInputChecksums(ArrayRef<uint64_t> got, ArrayRef<uint64_t> made,
                           StringRef where);
  /// The guards and the inputs after every timed run.
  bool checkTimedInputs(const TimedRunReferences &refs,
                        const TimedRunsOutcome &timing);
  /// The outputs of the timed runs read back.
  bool checkTimedOutputs(const TimedRunReferences &refs,
                         const TimedRunsOutcome &timing);
  /// The runs made back to back after the timing.
  bool checkBackToBackRuns(const TimedRunReferences &refs,
                           const TimedRunsOutcome &timing);
  bool checkOutputs(ArrayRef<HostBuffer> host, ArrayRef<HostBuffer> expected,
                    ArrayRef<HostBuffer> got,
                    const std::vector<HostBuffer> *highOut, Distribution dist,
                    uint64_t seed, StringRef where);
  /// Judges output `i` again where it failed the plain bound: with the
  /// room its elements' conditioning gives (measured once per call, into
  /// `conditioning`), and in a whole low-precision program with the room
  /// its own rounding gives (into `room`); `cmp` becomes the comparison that
  /// passed. False when a measurement failed (the evaluation is finished).
  bool rejudgeWithRoom(unsigned i, ElementKind kind, bool highOnly,
                       ArrayRef<HostBuffer> host, const HostBuffer &got,
                       const HostBuffer &reference,
                       ArrayRef<HostBuffer> highOut, uint64_t seed,
                       StringRef where, CompareOptions &compare,
                       std::vector<HostBuffer> &conditioning,
                       std::vector<HostBuffer> &room, CompareResult &cmp);
  /// Puts output `i`'s comparison into the result (a note on non-finite
  /// references, the worst element so far) and finishes the evaluation as
  /// wrong where it failed; returns whether it passed.
  bool recordOutputVerdict(unsigned i, const CompareResult &cmp,
                           Distribution dist, uint64_t seed, StringRef where);
  bool measureConditioning(ArrayRef<HostBuffer> host,
                           ArrayRef<HostBuffer> highOut, uint64_t seed,
                           StringRef where,
                           std::vector<HostBuffer> &conditioning);
  /// Whether the problem is a low-precision program of several ops whose
  /// results it rounds (compiles the rounded reference the first time).
  bool roundsIntermediates();
  /// The room the program's own rounding of its ops' results gives each
  /// output element (see docs/evaluation.md, "Whole low-precision
  /// programs"), from the rounded reference's run on `host`.
  bool measureRoundingRoom(ArrayRef<HostBuffer> host,
                           ArrayRef<HostBuffer> highOut, StringRef where,
                           std::vector<HostBuffer> &room);

  Target &target;
  ModuleOp problem, candidate;
  const EvalOptions &options;
  const RunnerFactory &startRunner;
  EvalResult &result;
  DeferredTarget *deferred;
  size_t currentPhase = ~size_t(0);
  std::chrono::steady_clock::time_point phaseStart =
      std::chrono::steady_clock::now();

  ProblemAnalysis analysis;
  SmallVector<OwningOpRef<ModuleOp>> modules; // lowered clones, kept alive
  Runner baseline, high;
  /// The high-precision reference with every op's result rounded to its
  /// declared type; compiled on the first comparison that needs it.
  Runner roundedHigh;
  /// -1: not known yet; else how many op results the program rounds to a
  /// narrower float (0 where there is no rounded reference).
  int64_t numRoundedResults = -1;
  /// The candidate, compiled here only without a runner factory.
  Runner local;
  /// Where the candidate runs: never decides anything.
  std::unique_ptr<CandidateRunner> runner;
  /// The candidate is the problem (the baseline's own evaluation, which
  /// writes the reference store and times the baseline).
  bool isProblemItself = false;
  /// The candidate's second run of a trial is being checked: its notes
  /// would repeat the first run's.
  bool isSecondRun = false;
  /// What checkOutputs derives from one trial's references, per output:
  /// the same for both runs of the trial, so it is computed once. Filled
  /// and dropped by runTrial; empty outside it.
  struct OutputBasis {
    std::optional<HostBuffer> rounded; // the reference of a low-precision one
    std::optional<double> atolScale;
    double atolFloor = 0;
  };
  std::vector<std::optional<OutputBasis>> trialBasis;
  /// The trial's input checksums, as trialBasis.
  std::optional<std::vector<uint64_t>> trialInputSums;
  std::unique_ptr<Target> hostTarget; // for the high-precision reference
  /// There is a high-precision reference: compiled here, or stored.
  bool haveHigh = false;
  /// The element kind the high-precision reference computes in.
  ElementKind highKind = ElementKind::F32;
  /// Where reference outputs are read from or written to; null: nowhere.
  std::unique_ptr<ReferenceStore> store;
};

} // namespace mlir::stark::detail

#endif // STARK_LIB_EVAL_EVALUATION_H
