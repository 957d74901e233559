//===- CandidateRunner.h - Where a candidate runs, apart from its judge -*-===//
//
// The evaluation protocol keeps the candidate's code away from its verdict:
// the judge (Evaluator.cpp) generates the inputs, computes the references,
// compares and decides; a CandidateRunner only runs the candidate (and, for
// interleaved timing, the baseline) on the inputs it is given and hands
// back what the arguments hold afterwards, the state of the guard regions
// around them and the raw timing samples. The runner of a real evaluation
// lives in a process of its own (RunnerProcess.h); the in-process one is for
// tests and debugging.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_CANDIDATERUNNER_H
#define STARK_EVAL_CANDIDATERUNNER_H

#include "stark/Eval/Inputs.h"
#include "stark/Eval/StepTimes.h"
#include "stark/Eval/Timing.h"
#include "stark/Target/Target.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mlir::stark {

/// What one untimed run of the candidate leaves behind.
struct RunOutcome {
  /// Every argument after the run. A runner in another process leaves the
  /// inputs' bytes empty and sends their checksums instead.
  std::vector<HostBuffer> args;
  /// xxh3 of every input after the run (getInputChecksums): the judge
  /// compares them with those of the inputs it made. (runOnce reports the
  /// checksums of the inputs it was given where they are unchanged after
  /// the run, and another value where they changed.)
  std::vector<uint64_t> inputChecksums;
  /// Writes outside the arguments (ArgBuffers::checkGuards); empty if none.
  std::string guardDamage;
  /// The runner's steps (EvalResult::runnerSeconds).
  StepTimes steps;
};

/// How the judge wants the timed runs made.
struct TimedRunsRequest {
  TimingOptions timing;
  /// Timed runs of the candidate (0-based, counted over all rounds) after
  /// which every argument is read back for the judge; the first run on each
  /// input set and the last run are always read back too.
  std::vector<unsigned> sampledRuns;
};

/// The arguments after one sampled timed run (inputs as in RunOutcome).
struct SampledRun {
  unsigned run = 0;
  unsigned inputSet = 0;
  std::vector<HostBuffer> args;
};

/// What a run made right after another one left: the candidate ran on
/// `previousSet`, then at once on `inputSet` (nothing between the two
/// launches but restoring the set where the kernel runs). Inputs as in
/// RunOutcome.
struct BackToBackRun {
  unsigned inputSet = 0;
  unsigned previousSet = 0;
  std::vector<HostBuffer> args;
  std::vector<uint64_t> inputChecksums;
};

/// What the timed runs give back: raw samples, never statistics.
struct TimedRunsOutcome {
  std::vector<double> baselineSamples, candidateSamples;
  unsigned rounds = 0;
  bool budgetExhausted = false;
  /// 0: the baseline failed, 1: the candidate failed, -1: neither.
  int failedKernel = -1;
  std::string error;
  /// Per timed run of the candidate: the input set it ran on and the
  /// checksum (xxh3) of every input argument after it, in argument order.
  std::vector<unsigned> runInputSet;
  std::vector<std::vector<uint64_t>> inputChecksums;
  /// The first timed run that wrote outside the arguments (~0u: a warm-up
  /// run), and what it wrote; empty if none did.
  std::string guardDamage;
  unsigned guardDamageRun = 0;
  std::vector<SampledRun> sampled;
  /// After the timed runs, one pair of back-to-back runs ending on each
  /// input set (runBackToBack). Timed runs are spaced by cache flushes,
  /// restores and checks; a kernel that behaves otherwise when launched
  /// soon after itself (a replay of its previous answer, keyed by a
  /// clock) shows it here.
  std::vector<BackToBackRun> backToBack;
  /// The runner's steps (EvalResult::runnerSeconds).
  StepTimes steps;
};

/// The timing options as JSON: the keys a timed-runs request and
/// EvalOptions's "timing" object share.
llvm::json::Object timingOptionsToJSON(const TimingOptions &timing);
/// Reads what timingOptionsToJSON wrote; every key it always writes is
/// required.
bool timingOptionsFromJSON(const llvm::json::Value &value,
                           TimingOptions &timing, llvm::json::Path path);

llvm::json::Value toJSON(const TimedRunsRequest &request);
bool fromJSON(const llvm::json::Value &value, TimedRunsRequest &request,
              llvm::json::Path path);

/// The checksum of every input argument of `args` (inputs only: outputs
/// are allowed to change), as TimedRunsOutcome::inputChecksums holds them.
std::vector<uint64_t> getInputChecksums(ArrayRef<HostBuffer> args);

class CandidateRunner {
public:
  virtual ~CandidateRunner();
  /// Makes the arguments of `recipe`, uploads them, runs the candidate
  /// once, reads the outputs, the inputs' checksums and the guards back.
  /// Failure: the candidate's run failed (`error` says how).
  virtual LogicalResult run(const ArgumentRecipe &recipe, RunOutcome &outcome,
                            std::string &error) = 0;
  /// Times baseline and candidate interleaved (Timing.h) on the timing sets
  /// of `seed` (makeTimingSets): the candidate's timed run k (and the
  /// baseline's) runs on set k mod 3. Failure: the runner itself failed
  /// (`error`); a failing kernel is reported in the outcome instead.
  virtual LogicalResult time(uint64_t seed, const TimedRunsRequest &request,
                             TimedRunsOutcome &outcome, std::string &error) = 0;
  /// Ends the runner after the last request; fails when it did not end
  /// cleanly (a runner under compute-sanitizer exits non-zero on a
  /// finding).
  virtual LogicalResult finish(std::string &error) { return success(); }
  /// The runner's steps while it started: parsing, creating the target,
  /// compiling the candidate (EvalResult::runnerSeconds).
  const StepTimes &getStartSteps() const { return startSteps; }

protected:
  StepTimes startSteps;
};

/// The timed runs as a runner makes them, on kernels and argument storage of
/// `target`: both kernels run on every set in turn, each run uploading its
/// set first (outside the timed region); after every timed run of the
/// candidate its inputs are checksummed and its guards checked, and the
/// requested runs are read back. Then the back-to-back pairs are run.
TimedRunsOutcome timeBaselineAndCandidate(
    Target &target, CompiledKernel &baseline, ArgBuffers &baselineArgs,
    CompiledKernel &candidate, ArgBuffers &candidateArgs,
    ArrayRef<std::vector<HostBuffer>> sets, const TimedRunsRequest &request);

/// One untimed run as a runner makes it; `schedule` as in ArgumentRecipe.
/// `in` is staged where the kernel runs (ArgBuffers::stage, so it must
/// outlive the call) and the inputs are compared with it there after the
/// run: on cuda a run reads back its outputs only, not every input.
/// `inputSums` are getInputChecksums(in), which both runs of a trial share.
LogicalResult runOnce(Target &target, CompiledKernel &kernel, ArgBuffers &args,
                      const std::vector<HostBuffer> &in,
                      ArrayRef<uint64_t> inputSums, unsigned schedule,
                      RunOutcome &outcome, std::string &error);

/// The arguments of the timing sets of `seed` (makeTimingSets), the time
/// they took in the step "making the timing sets" of `steps`.
std::vector<std::vector<HostBuffer>>
makeTimingArguments(const KernelSignature &signature,
                    ArrayRef<bool> outputIsRead, uint64_t seed,
                    StepTimes &steps);

/// A runner in this process, on kernels compiled by the caller: no
/// isolation, for tests and `stark-eval --in-process`.
std::unique_ptr<CandidateRunner>
createInProcessRunner(Target &target, const KernelSignature &signature,
                      ArrayRef<bool> outputIsRead, CompiledKernel &baseline,
                      ArgBuffers &baselineArgs, CompiledKernel &candidate,
                      ArgBuffers &candidateArgs);

} // namespace mlir::stark

#endif // STARK_EVAL_CANDIDATERUNNER_H
