//===- Timing.cpp - Interleaved timing loop and its statistics ------------===//

#include "stark/Eval/Timing.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::stark;

/// Quantile `q` of sorted data with linear interpolation between order
/// statistics (the "type 7" rule of R and NumPy's default).
static double quantile(ArrayRef<double> sorted, double q) {
  if (sorted.empty())
    return 0;
  double pos = q * double(sorted.size() - 1);
  size_t lo = size_t(std::floor(pos));
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  double frac = pos - double(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

TimingStats mlir::stark::computeTimingStats(ArrayRef<double> samples) {
  TimingStats s;
  s.trials = samples.size();
  if (samples.empty())
    return s;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = quantile(sorted, 0.5);
  s.q1 = quantile(sorted, 0.25);
  s.q3 = quantile(sorted, 0.75);
  double sum = 0;
  for (double v : sorted)
    sum += v;
  s.mean = sum / double(sorted.size());
  double sq = 0;
  for (double v : sorted)
    sq += (v - s.mean) * (v - s.mean);
  s.stdev = sorted.size() > 1 ? std::sqrt(sq / double(sorted.size() - 1)) : 0;
  return s;
}

double TimingStats::relativeMedianError() const {
  if (trials == 0 || !(median > 0))
    return std::numeric_limits<double>::infinity();
  constexpr double kSigmaPerIqr = 1 / 1.349;
  const double kMedianPerSigma = std::sqrt(M_PI / 2);
  return kMedianPerSigma * kSigmaPerIqr * iqr() / std::sqrt(double(trials)) /
         median;
}

/// Whether `s` (at least the minimum of samples) says enough about its
/// kernel: a small spread, or a precise median.
static bool isSettled(const TimingStats &s, const TimingOptions &options) {
  if (s.iqr() <= std::max(options.targetRelativeSpread * s.median,
                          options.spreadFloorSeconds))
    return true;
  return options.targetMedianError > 0 &&
         s.relativeMedianError() <= options.targetMedianError;
}

InterleavedTiming mlir::stark::timeInterleaved(ArrayRef<UntimedRun> warmup,
                                               ArrayRef<TimedRun> timed,
                                               const TimingOptions &options) {
  InterleavedTiming result;
  size_t numKernels = timed.size();
  std::vector<std::vector<double>> &samples = result.samples;
  samples.resize(numKernels);
  result.stats.resize(numKernels);

  for (unsigned w = 0; w < options.warmupRuns; ++w) {
    for (size_t k = 0; k < warmup.size(); ++k) {
      if (failed(warmup[k](result.error))) {
        result.failedKernel = int(k);
        return result;
      }
    }
  }

  auto start = std::chrono::steady_clock::now();
  unsigned minTrials = std::max(1u, options.minTrials);
  unsigned maxTrials = std::max(minTrials, options.maxTrials);
  std::vector<bool> settled(numKernels, false);
  while (result.rounds < maxTrials) {
    for (size_t k = 0; k < numKernels; ++k) {
      if (settled[k])
        continue;
      FailureOr<double> seconds = timed[k](result.error);
      if (failed(seconds)) {
        result.failedKernel = int(k);
        for (size_t j = 0; j < numKernels; ++j)
          result.stats[j] = computeTimingStats(samples[j]);
        return result;
      }
      samples[k].push_back(*seconds);
    }
    ++result.rounds;
    if (result.rounds < minTrials)
      continue;
    bool allSettled = true;
    for (size_t k = 0; k < numKernels; ++k) {
      if (!settled[k])
        settled[k] = isSettled(computeTimingStats(samples[k]), options);
      allSettled = allSettled && settled[k];
    }
    if (allSettled) {
      result.spreadReached = true;
      break;
    }
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (elapsed >= options.budgetSeconds) {
      result.budgetExhausted = true;
      break;
    }
  }
  for (size_t k = 0; k < numKernels; ++k)
    result.stats[k] = computeTimingStats(samples[k]);
  return result;
}

std::string mlir::stark::formatDuration(double seconds) {
  std::string text;
  llvm::raw_string_ostream os(text);
  double a = std::fabs(seconds);
  if (a == 0)
    os << "0 s";
  else if (a < 1e-6)
    os << llvm::format("%.4g ns", seconds * 1e9);
  else if (a < 1e-3)
    os << llvm::format("%.4g us", seconds * 1e6);
  else if (a < 1)
    os << llvm::format("%.4g ms", seconds * 1e3);
  else
    os << llvm::format("%.4g s", seconds);
  return text;
}
