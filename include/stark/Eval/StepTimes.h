//===- StepTimes.h - Where an evaluation's wall time goes -------*- C++ -*-===//
//
// Seconds per named step ("compiling the candidate", "uploading the
// arguments", ...), summed over the step's occurrences and listed in the
// order each step first ran. The judge keeps its phases this way, and a
// candidate's runner reports its own steps inside them, so that a report
// says where an evaluation's time went down to the copies and the runs.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_STEPTIMES_H
#define STARK_EVAL_STEPTIMES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace mlir::stark {

using StepTimes = std::vector<std::pair<std::string, double>>;

/// Adds `seconds` to step `name` (a new step goes last).
void addStepTime(StepTimes &steps, StringRef name, double seconds);

/// Adds every step of `more` to `steps`.
void addStepTimes(StepTimes &steps, const StepTimes &more);

/// [[name, seconds], ...].
llvm::json::Array stepTimesToJSON(const StepTimes &steps);

/// The steps of `value` (as stepTimesToJSON writes them) added to `steps`;
/// entries of another form are skipped (a report is no place to fail).
void addStepTimesFromJSON(const llvm::json::Value *value, StepTimes &steps);

/// Adds the wall time from its construction to its destruction (or to
/// stop()) to one step.
class StepTimer {
public:
  StepTimer(StepTimes &steps, StringRef name)
      : steps(&steps), name(name.str()),
        start(std::chrono::steady_clock::now()) {}
  ~StepTimer() { stop(); }
  StepTimer(const StepTimer &) = delete;
  StepTimer &operator=(const StepTimer &) = delete;
  void stop();

private:
  StepTimes *steps;
  std::string name;
  std::chrono::steady_clock::time_point start;
};

} // namespace mlir::stark

#endif // STARK_EVAL_STEPTIMES_H
