//===- ModelLeftover.cpp - Searches with the time the coverage pass left
//---===//
//
// The plan keeps one evaluation back for each problem's coverage at the
// prior cost until it has measured one, so a model of many small problems
// can see its whole budget kept for a coverage pass that then takes far
// less. What is left after it goes to searches of the problems it gave a
// first pick, planned again from the measured cost; a first pick gives way
// only to a faster winner.
//
//===----------------------------------------------------------------------===//

#include "ModelSearchInternal.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <utility>

using namespace mlir;
using namespace mlir::stark;
using namespace mlir::stark::modelsearch;

LogicalResult ModelSearch::searchLeftover(const ModelPlan &plan,
                                          ArrayRef<size_t> open,
                                          size_t &turns) {
  // A tuning database records each search's winner; one that lost to its
  // first pick must not be recorded as the problem's best.
  // With a budget of one candidate a search could only judge the first
  // pick again.
  if (options.totalSeconds <= 0 || options.records ||
      options.problem.budget <= 1)
    return success();
  // As in the plan: where ops have shares of the model's time, one without
  // (outside top-k) gets no search.
  bool haveShares = llvm::any_of(
      open, [&](size_t index) { return entries[index].plan.share > 0; });
  std::vector<size_t> again;
  std::vector<PlanProblem> toPlan;
  for (size_t k : plan.getOrder())
    if (entries[open[k]].outcome == "first pick" &&
        (!haveShares || entries[open[k]].plan.share > 0)) {
      again.push_back(open[k]);
      toPlan.push_back(entries[open[k]].plan);
    }
  double left = plan.getLeft();
  if (again.empty() || !(left > 0))
    return success();
  ModelPlanOptions leftover = plan.getOptions();
  leftover.totalSeconds = left;
  leftover.covered = true;
  // What the run measured an evaluation to cost, not the prior.
  leftover.evaluationSecondsPrior = plan.getEvaluationEstimate();
  Clock::time_point start = Clock::now();
  ModelPlan second(std::move(toPlan), leftover,
                   [start] { return secondsSince(start); });
  bool announced = false;
  while (std::optional<PlanTurn> turn = second.next()) {
    if (!std::exchange(announced, true))
      progressLine(llvm::formatv(
          "stark-search: {0:f1} s left after the coverage pass: searching "
          "the problems it covered, in the plan's order",
          left));
    ++planned;
    if (failed(searchAgain(again[turn->problem], *turn, turns++, second)))
      return failure();
  }
  return success();
}

LogicalResult ModelSearch::searchAgain(size_t index, const PlanTurn &turn,
                                       size_t rank, ModelPlan &plan) {
  Entry &e = entries[index];
  // The first pick is set aside while the problem is searched: the problem
  // alone is what the search evaluates.
  auto takeWinner = [&]() -> OwningOpRef<ModuleOp> {
    auto winner = e.problem.lookupSymbol<ModuleOp>("winner");
    e.problem->removeAttr(kWinnerAttrName);
    if (e.winner)
      --out.winners;
    e.winner = false;
    if (!winner)
      return nullptr;
    winner->remove();
    return OwningOpRef<ModuleOp>(winner);
  };
  Attribute pickAttr = e.problem->getAttr(kWinnerAttrName);
  double pickSpeedup = e.speedup;
  llvm::json::Object pickReport = e.report;
  std::string pickWhy = e.report.getString("why").value_or("").str();
  OwningOpRef<ModuleOp> pick = takeWinner();
  // One remark an op: the coverage pass's gives way to what this turn ends
  // with.
  std::string alone = ("alone as @" + e.symbol.getValue() + ": ").str();
  llvm::erase_if(out.remarks, [&](const auto &r) {
    if (r.first == e.problem.getOperation())
      return true;
    // An op's remarks as the problem alone and as its chain differ by
    // their prefix (remark()).
    return llvm::is_contained(e.ops, r.first) &&
           StringRef(r.second).starts_with("alone as @") == e.alone &&
           (!e.alone || StringRef(r.second).starts_with(alone));
  });
  size_t remarks = out.remarks.size();
  if (failed(searchTurn(index, turn, rank, plan)))
    return failure();
  if (e.outcome == "searched" && e.winner && e.speedup > pickSpeedup) {
    if (const llvm::json::Value *first = pickReport.get("first_pick"))
      e.report["first_pick"] = *first;
    return success();
  }
  // Nothing faster: the first pick stays, with what the search found.
  std::string found =
      e.winner
          ? llvm::formatv("its best, {0:f2}x, is not faster", e.speedup).str()
          : "no winner";
  takeWinner();
  out.remarks.resize(remarks);
  if (pick) {
    e.problem.getBody()->push_back(pick.release());
    e.problem->setAttr(kWinnerAttrName, pickAttr);
    e.winner = true;
    e.speedup = pickSpeedup;
    ++out.winners;
  }
  llvm::json::Object search{
      {"seconds", e.report.getNumber("seconds").value_or(0)},
      {"budget_seconds", turn.allotment},
      {"candidates", e.report.getInteger("candidates").value_or(0)},
      {"found", found}};
  e.report = std::move(pickReport);
  e.report["searched_again"] = std::move(search);
  finish(e, "first pick",
         pickWhy + llvm::formatv("; searched again with the time the "
                                 "coverage pass left ({0:f1} s): {1}",
                                 turn.allotment, found));
  return success();
}
