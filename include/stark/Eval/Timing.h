//===- Timing.h - Interleaved timing loop and its statistics ----*- C++ -*-===//
//
// Kernels are timed in rounds: each round runs every kernel once, in a fixed
// order (baseline, candidate, baseline, candidate, ...), so slow drifts of
// the machine (clock boost, other processes) hit all of them alike. A kernel
// is settled once it has enough samples and either a small spread or a
// median known precisely enough; later rounds leave it out (a slow baseline
// then no longer sets the pace of a fast candidate's rounds). The loop stops
// once every kernel is settled, or when the time budget is spent.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_TIMING_H
#define STARK_EVAL_TIMING_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace mlir::stark {

struct TimingOptions {
  /// Untimed runs of every kernel before the first timed round.
  unsigned warmupRuns = 3;
  /// Rounds always run (unless a run fails).
  unsigned minTrials = 10;
  /// Rounds never exceeded.
  unsigned maxTrials = 1000;
  /// Stop early once IQR / median of every kernel is at most this.
  double targetRelativeSpread = 0.02;
  /// ... or its IQR at most this many seconds. CUDA events resolve about
  /// half a microsecond, so the samples of a kernel of a few microseconds
  /// are whole ticks apart and their IQR never comes within
  /// targetRelativeSpread of the median: such a loop ran to maxTrials or
  /// budgetSeconds for a median no better known.
  double spreadFloorSeconds = 1e-6;
  /// ... or the median's estimated standard error (TimingStats::
  /// relativeMedianError) at most this share of the median: a kernel whose
  /// runs spread by a few percent by nature (a 300 us GEMM's IQR is often
  /// 3%) has its median known to 0.5% after about 40 samples, where the
  /// spread rule alone ran to the budget. 0 turns the rule off.
  double targetMedianError = 0.005;
  /// Stop after minTrials once this much wall time has passed (seconds,
  /// measured around the whole loop, uploads included).
  double budgetSeconds = 2.0;
  /// Evict the last-level cache before every timed run.
  bool flushCache = true;
  /// Hold the stream until a lowered host program (an MLIR candidate, a
  /// problem's baseline, a whole program) has queued its kernels, as
  /// launch lists always are, so that its timed runs measure the kernels
  /// back to back (as a CUDA graph replays them) rather than the host's
  /// gaps between launches. Where the host code waits for the device (a
  /// copy to the host, an event, an allocation) the gate opens first; a
  /// run the gate's watchdog had to open fails.
  bool gateHostPrograms = false;
  /// Capture a lowered host program's launches once per argument buffers
  /// into a CUDA graph and time its replays: the program as a runtime with
  /// command buffers (CUDA graphs) runs it, the way torch's CUDA-graph mode
  /// runs eager. A program whose host code waits for the device while it
  /// runs cannot be captured: its timing fails and says why. Launch lists
  /// are timed as before (behind the gate). Timing only: the verdict comes
  /// from the correctness trials, which run the host code.
  bool graphHostPrograms = false;
};

/// Summary of one kernel's samples (seconds).
struct TimingStats {
  unsigned trials = 0;
  double median = 0, min = 0, max = 0, mean = 0, stdev = 0;
  double q1 = 0, q3 = 0; // quartiles, linear interpolation
  double iqr() const { return q3 - q1; }
  /// IQR / median; 0 when there is no sample.
  double relativeSpread() const { return median > 0 ? iqr() / median : 0; }
  /// The standard error of the median over the median, estimated from the
  /// IQR as for a normal distribution (sigma = IQR / 1.349, the median's
  /// error sqrt(pi / 2) sigma / sqrt(n)); robust to the long right tail of
  /// timings. Infinite without a sample or a positive median.
  double relativeMedianError() const;
};

/// Statistics of `samples` (any order).
TimingStats computeTimingStats(ArrayRef<double> samples);

/// One timed run of one kernel: returns seconds, or failure with `error`.
using TimedRun = llvm::function_ref<FailureOr<double>(std::string &error)>;
/// One untimed run (warm-up).
using UntimedRun = llvm::function_ref<LogicalResult(std::string &error)>;

struct InterleavedTiming {
  std::vector<TimingStats> stats; // one per kernel, in the order given
  /// The samples behind `stats` (seconds, in the order taken), one list per
  /// kernel: a judge in another process recomputes the statistics from them.
  /// A kernel settled before the last round has fewer samples than the
  /// rounds.
  std::vector<std::vector<double>> samples;
  unsigned rounds = 0;
  bool budgetExhausted = false; // stopped on time, not on spread
  bool spreadReached = false;   // every kernel settled
  /// On failure: which kernel failed and why.
  int failedKernel = -1;
  std::string error;
};

/// Warms up every kernel, then runs rounds of `timed` in order until the
/// stopping rule of `options` holds. `warmup[i]` and `timed[i]` belong to
/// kernel i. Stops at the first failing run and sets `failedKernel`.
InterleavedTiming timeInterleaved(ArrayRef<UntimedRun> warmup,
                                  ArrayRef<TimedRun> timed,
                                  const TimingOptions &options);

/// "1.234 us", "56.7 ms": seconds with an SI unit and 4 significant digits.
std::string formatDuration(double seconds);

} // namespace mlir::stark

#endif // STARK_EVAL_TIMING_H
