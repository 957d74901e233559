//===- StepTimes.cpp - Where an evaluation's wall time goes ---------------===//

#include "stark/Eval/StepTimes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stark;
namespace json = llvm::json;

void mlir::stark::addStepTime(StepTimes &steps, StringRef name,
                              double seconds) {
  auto it =
      llvm::find_if(steps, [&](const auto &s) { return s.first == name; });
  if (it == steps.end())
    steps.emplace_back(name.str(), seconds);
  else
    it->second += seconds;
}

void mlir::stark::addStepTimes(StepTimes &steps, const StepTimes &more) {
  for (const auto &[name, seconds] : more)
    addStepTime(steps, name, seconds);
}

json::Array mlir::stark::stepTimesToJSON(const StepTimes &steps) {
  json::Array out;
  for (const auto &[name, seconds] : steps)
    out.push_back(json::Array{name, seconds});
  return out;
}

void mlir::stark::addStepTimesFromJSON(const json::Value *value,
                                       StepTimes &steps) {
  const json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return;
  for (const json::Value &v : *array) {
    const json::Array *pair = v.getAsArray();
    if (!pair || pair->size() != 2)
      continue;
    std::optional<StringRef> name = (*pair)[0].getAsString();
    std::optional<double> seconds = (*pair)[1].getAsNumber();
    if (name && seconds)
      addStepTime(steps, *name, *seconds);
  }
}

void StepTimer::stop() {
  if (!steps)
    return;
  addStepTime(
      *steps, name,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
  steps = nullptr;
}
