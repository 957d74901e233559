//===- CandidateRunner.cpp - Runs and timed runs of a candidate -----------===//

#include "stark/Eval/CandidateRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/xxhash.h"

#include <set>

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

CandidateRunner::~CandidateRunner() = default;

json::Object mlir::stark::timingOptionsToJSON(const TimingOptions &t) {
  return json::Object{
      {"warmup_runs", t.warmupRuns},
      {"min_trials", t.minTrials},
      {"max_trials", t.maxTrials},
      {"target_relative_spread", t.targetRelativeSpread},
      {"spread_floor_seconds", t.spreadFloorSeconds},
      {"target_median_error", t.targetMedianError},
      {"budget_seconds", t.budgetSeconds},
      {"flush_cache", t.flushCache},
      {"gate_host_programs", t.gateHostPrograms},
      {"graph_host_programs", t.graphHostPrograms},
  };
}

json::Value mlir::stark::toJSON(const TimedRunsRequest &request) {
  json::Object o = timingOptionsToJSON(request.timing);
  o["sampled_runs"] = json::Array(request.sampledRuns);
  return o;
}

bool mlir::stark::timingOptionsFromJSON(const json::Value &value,
                                        TimingOptions &t, json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("warmup_runs", t.warmupRuns) &&
         o.map("min_trials", t.minTrials) && o.map("max_trials", t.maxTrials) &&
         o.map("target_relative_spread", t.targetRelativeSpread) &&
         o.mapOptional("spread_floor_seconds", t.spreadFloorSeconds) &&
         o.mapOptional("target_median_error", t.targetMedianError) &&
         o.map("budget_seconds", t.budgetSeconds) &&
         o.map("flush_cache", t.flushCache) &&
         o.mapOptional("gate_host_programs", t.gateHostPrograms) &&
         o.mapOptional("graph_host_programs", t.graphHostPrograms);
}

bool mlir::stark::fromJSON(const json::Value &value, TimedRunsRequest &request,
                           json::Path path) {
  json::ObjectMapper o(value, path);
  return o && timingOptionsFromJSON(value, request.timing, path) &&
         o.map("sampled_runs", request.sampledRuns);
}

std::vector<uint64_t>
mlir::stark::getInputChecksums(ArrayRef<HostBuffer> args) {
  std::vector<uint64_t> sums;
  for (const HostBuffer &b : args)
    if (!b.spec.isOutput)
      sums.push_back(llvm::xxh3_64bits(b.bytes));
  return sums;
}

static std::vector<HostBuffer> makeLike(ArrayRef<HostBuffer> like) {
  std::vector<HostBuffer> out;
  for (const HostBuffer &b : like)
    out.emplace_back(b.spec);
  return out;
}

/// The outputs of `args`, the inputs as placeholders: what the judge reads.
static std::vector<HostBuffer> copyOutputs(ArrayRef<HostBuffer> args) {
  std::vector<HostBuffer> out;
  for (const HostBuffer &b : args)
    out.push_back(b.spec.isOutput ? b : makeInputPlaceholder(b.spec));
  return out;
}

/// What a run left in `args`, which ran on staged set `staged` (`in`): the
/// outputs (the inputs as placeholders: only the outputs go to the judge),
/// the inputs' checksums and the guards' damage. The inputs are compared
/// with the staged set where they are (on cuda on the device: reading
/// back every input after every run took most of a run's time at model
/// sizes) and reported by `inputSums`, the checksums of `in`'s inputs, a
/// changed one by another value.
static LogicalResult readBackRun(ArgBuffers &args,
                                 const std::vector<HostBuffer> &in,
                                 unsigned staged, ArrayRef<uint64_t> inputSums,
                                 RunOutcome &outcome, std::string &error) {
  if (failed(downloadOutputs(args, in, outcome.args, error)))
    return failure();
  FailureOr<SmallVector<unsigned>> changed =
      args.findChangedInputs(staged, error);
  if (failed(changed))
    return failure();
  outcome.inputChecksums.assign(inputSums.begin(), inputSums.end());
  unsigned input = 0;
  for (auto [i, b] : llvm::enumerate(in)) {
    if (b.spec.isOutput)
      continue;
    if (input < outcome.inputChecksums.size() &&
        llvm::is_contained(*changed, unsigned(i)))
      outcome.inputChecksums[input] = ~outcome.inputChecksums[input];
    ++input;
  }
  FailureOr<std::string> damage = args.checkGuards(error);
  if (failed(damage))
    return failure();
  outcome.guardDamage = std::move(*damage);
  return success();
}

LogicalResult mlir::stark::runOnce(Target &target, CompiledKernel &kernel,
                                   ArgBuffers &args,
                                   const std::vector<HostBuffer> &in,
                                   ArrayRef<uint64_t> inputSums,
                                   unsigned schedule, RunOutcome &outcome,
                                   std::string &error) {
  {
    StepTimer step(outcome.steps, "uploading the arguments");
    if (failed(args.stage(ArrayRef<std::vector<HostBuffer>>(in), error)) ||
        failed(args.restore(0, error)))
      return failure();
  }
  {
    StepTimer step(outcome.steps, "running the candidate");
    if (failed(schedule ? target.runRescheduled(kernel, args, schedule, error)
                        : kernel.run(args, error)))
      return failure();
  }
  StepTimer step(outcome.steps, "reading back and comparing");
  return readBackRun(args, in, /*staged=*/0, inputSums, outcome, error);
}

std::vector<std::vector<HostBuffer>>
mlir::stark::makeTimingArguments(const KernelSignature &signature,
                                 ArrayRef<bool> outputIsRead, uint64_t seed,
                                 StepTimes &steps) {
  StepTimer step(steps, "making the timing sets");
  std::vector<std::vector<HostBuffer>> sets;
  for (TimingSet &set : makeTimingSets(signature, outputIsRead, seed))
    sets.push_back(std::move(set.args));
  return sets;
}

/// For each staged set, a run on the set before it and at once a run on it,
/// the second read back with its inputs' checksums; a write around the
/// arguments is reported as in the timed runs.
static LogicalResult runBackToBack(Target &target, CompiledKernel &candidate,
                                   ArgBuffers &args,
                                   ArrayRef<std::vector<HostBuffer>> sets,
                                   ArrayRef<std::vector<uint64_t>> setSums,
                                   TimedRunsOutcome &outcome,
                                   std::string &error) {
  unsigned numSets = unsigned(sets.size());
  for (unsigned set = 0; set < numSets; ++set) {
    BackToBackRun pair;
    pair.inputSet = set;
    pair.previousSet = (set + numSets - 1) % numSets;
    if (failed(target.runBackToBack(candidate, args, pair.previousSet, set,
                                    error)))
      return failure();
    RunOutcome second;
    if (failed(readBackRun(args, sets[set], set, setSums[set], second, error)))
      return failure();
    pair.args = std::move(second.args);
    pair.inputChecksums = std::move(second.inputChecksums);
    if (!second.guardDamage.empty() && outcome.guardDamage.empty()) {
      outcome.guardDamage = "during a back-to-back run: " + second.guardDamage;
      outcome.guardDamageRun = ~0u; // no timed run
    }
    outcome.backToBack.push_back(std::move(pair));
  }
  return success();
}

/// After timed run `run` of the candidate, on staged set `setIndex`, with
/// the clock stopped: what the run did to its inputs (their checksums;
/// `setSums` are the staged set's, `inputPosition` maps an argument to its
/// place among them) and around its arguments, and, for a `sample`,
/// everything it left, read into `readBack`.
static LogicalResult
recordTimedRun(ArgBuffers &args, unsigned run, unsigned setIndex, bool sample,
               ArrayRef<uint64_t> setSums, ArrayRef<unsigned> inputPosition,
               std::vector<HostBuffer> &readBack, TimedRunsOutcome &outcome,
               std::string &error) {
  if (sample) {
    if (failed(args.download(readBack, error)))
      return failure();
    outcome.inputChecksums.push_back(getInputChecksums(readBack));
  } else {
    // Inputs equal to the staged set have its checksums; a changed one
    // is read back, so that the judge sees what it became.
    FailureOr<SmallVector<unsigned>> changed =
        args.findChangedInputs(setIndex, error);
    if (failed(changed))
      return failure();
    std::vector<uint64_t> sums(setSums.begin(), setSums.end());
    for (unsigned i : *changed) {
      if (i >= readBack.size() || inputPosition[i] >= sums.size()) {
        error = "a changed input that is not an input argument";
        return failure();
      }
      if (failed(args.downloadArg(i, readBack[i], error)))
        return failure();
      sums[inputPosition[i]] = llvm::xxh3_64bits(readBack[i].bytes);
    }
    outcome.inputChecksums.push_back(std::move(sums));
  }
  outcome.runInputSet.push_back(setIndex);
  FailureOr<std::string> damage = args.checkGuards(error);
  if (failed(damage))
    return failure();
  if (!damage->empty() && outcome.guardDamage.empty()) {
    outcome.guardDamage = *damage;
    outcome.guardDamageRun = run;
  }
  if (sample)
    outcome.sampled.push_back({run, setIndex, copyOutputs(readBack)});
  return success();
}

TimedRunsOutcome mlir::stark::timeBaselineAndCandidate(
    Target &target, CompiledKernel &baseline, ArgBuffers &baselineArgs,
    CompiledKernel &candidate, ArgBuffers &candidateArgs,
    ArrayRef<std::vector<HostBuffer>> sets, const TimedRunsRequest &request) {
  TimedRunsOutcome outcome;
  if (sets.empty()) {
    outcome.failedKernel = 1;
    outcome.error = "no input sets to time on";
    return outcome;
  }
  TimingRunOptions runOptions;
  runOptions.flushCache = request.timing.flushCache;
  runOptions.gateHostPrograms = request.timing.gateHostPrograms;
  runOptions.graphHostPrograms = request.timing.graphHostPrograms;
  std::set<unsigned> sampled(request.sampledRuns.begin(),
                             request.sampledRuns.end());
  for (unsigned s = 0; s < sets.size(); ++s)
    sampled.insert(s); // the first run on every set
  unsigned baselineRuns = 0, candidateRuns = 0;
  // What the candidate's latest sampled run left.
  std::vector<HostBuffer> readBack = makeLike(sets.front());
  // The sets stay where the kernels run: a timed run starts from a copy
  // made there, and its inputs are compared there.
  StepTimer staging(outcome.steps, "staging the timing sets");
  if (failed(baselineArgs.stage(sets, outcome.error))) {
    outcome.failedKernel = 0;
    return outcome;
  }
  if (failed(candidateArgs.stage(sets, outcome.error))) {
    outcome.failedKernel = 1;
    return outcome;
  }
  std::vector<std::vector<uint64_t>> setSums;
  for (const std::vector<HostBuffer> &set : sets)
    setSums.push_back(getInputChecksums(set));
  // Argument index -> position among the inputs (the checksums' order).
  std::vector<unsigned> inputPosition(sets.front().size(), ~0u);
  for (unsigned i = 0, input = 0; i < sets.front().size(); ++i)
    if (!sets.front()[i].spec.isOutput)
      inputPosition[i] = input++;

  auto warmBaseline = [&](std::string &error) -> LogicalResult {
    if (failed(baselineArgs.restore(0, error)))
      return failure();
    return baseline.run(baselineArgs, error);
  };
  auto warmCandidate = [&](std::string &error) -> LogicalResult {
    if (failed(candidateArgs.restore(0, error)) ||
        failed(candidate.run(candidateArgs, error)))
      return failure();
    FailureOr<std::string> damage = candidateArgs.checkGuards(error);
    if (failed(damage))
      return failure();
    if (!damage->empty() && outcome.guardDamage.empty()) {
      outcome.guardDamage = "during a warm-up run: " + *damage;
      outcome.guardDamageRun = ~0u; // no timed run
    }
    return success();
  };
  auto timeBaseline = [&](std::string &error) -> FailureOr<double> {
    if (failed(baselineArgs.restore(baselineRuns++ % sets.size(), error)))
      return failure();
    return target.timeRun(baseline, baselineArgs, runOptions, error);
  };
  auto timeCandidate = [&](std::string &error) -> FailureOr<double> {
    unsigned run = candidateRuns++;
    unsigned setIndex = run % sets.size();
    if (failed(candidateArgs.restore(setIndex, error)))
      return failure();
    FailureOr<double> seconds =
        target.timeRun(candidate, candidateArgs, runOptions, error);
    if (failed(seconds))
      return failure();
    if (failed(recordTimedRun(candidateArgs, run, setIndex,
                              sampled.count(run) != 0, setSums[setIndex],
                              inputPosition, readBack, outcome, error)))
      return failure();
    return seconds;
  };

  staging.stop();
  UntimedRun warmups[] = {warmBaseline, warmCandidate};
  TimedRun runs[] = {timeBaseline, timeCandidate};
  StepTimer rounds(outcome.steps, "warm-up and timed rounds");
  InterleavedTiming timing = timeInterleaved(warmups, runs, request.timing);
  rounds.stop();
  outcome.rounds = timing.rounds;
  outcome.budgetExhausted = timing.budgetExhausted;
  outcome.failedKernel = timing.failedKernel;
  outcome.error = timing.error;
  outcome.baselineSamples = std::move(timing.samples[0]);
  outcome.candidateSamples = std::move(timing.samples[1]);
  // The last run is always checked: a kernel honest only at first would
  // otherwise go unseen. The candidate runs last in every round, so its
  // arguments still hold what that run left.
  if (candidateRuns > 0 && outcome.failedKernel < 0 &&
      !sampled.count(candidateRuns - 1)) {
    if (failed(candidateArgs.download(readBack, outcome.error))) {
      outcome.failedKernel = 1;
      return outcome;
    }
    outcome.sampled.push_back({candidateRuns - 1,
                               (candidateRuns - 1) % unsigned(sets.size()),
                               copyOutputs(readBack)});
  }
  StepTimer pairs(outcome.steps, "back-to-back runs");
  if (candidateRuns > 0 && outcome.failedKernel < 0 &&
      failed(runBackToBack(target, candidate, candidateArgs, sets, setSums,
                           outcome, outcome.error)))
    outcome.failedKernel = 1;
  pairs.stop();
  return outcome;
}

namespace {

class InProcessRunner : public CandidateRunner {
public:
  InProcessRunner(Target &target, const KernelSignature &signature,
                  ArrayRef<bool> outputIsRead, CompiledKernel &baseline,
                  ArgBuffers &baselineArgs, CompiledKernel &candidate,
                  ArgBuffers &candidateArgs)
      : target(target), signature(signature),
        outputIsRead(outputIsRead.begin(), outputIsRead.end()),
        baseline(baseline), baselineArgs(baselineArgs), candidate(candidate),
        candidateArgs(candidateArgs) {}

  LogicalResult run(const ArgumentRecipe &recipe, RunOutcome &outcome,
                    std::string &error) override {
    std::vector<HostBuffer> args;
    {
      StepTimer step(outcome.steps, "making the arguments");
      args = makeArguments(signature, outputIsRead, recipe);
    }
    return runOnce(target, candidate, candidateArgs, args,
                   getInputChecksums(args), recipe.schedule, outcome, error);
  }

  LogicalResult time(uint64_t seed, const TimedRunsRequest &request,
                     TimedRunsOutcome &outcome, std::string &) override {
    StepTimes making;
    std::vector<std::vector<HostBuffer>> sets =
        makeTimingArguments(signature, outputIsRead, seed, making);
    outcome = timeBaselineAndCandidate(target, baseline, baselineArgs,
                                       candidate, candidateArgs, sets, request);
    addStepTimes(making, outcome.steps);
    outcome.steps = std::move(making);
    return success();
  }

private:
  Target &target;
  KernelSignature signature;
  SmallVector<bool> outputIsRead;
  CompiledKernel &baseline;
  ArgBuffers &baselineArgs;
  CompiledKernel &candidate;
  ArgBuffers &candidateArgs;
};

} // namespace

std::unique_ptr<CandidateRunner> mlir::stark::createInProcessRunner(
    Target &target, const KernelSignature &signature,
    ArrayRef<bool> outputIsRead, CompiledKernel &baseline,
    ArgBuffers &baselineArgs, CompiledKernel &candidate,
    ArgBuffers &candidateArgs) {
  return std::make_unique<InProcessRunner>(target, signature, outputIsRead,
                                           baseline, baselineArgs, candidate,
                                           candidateArgs);
}
