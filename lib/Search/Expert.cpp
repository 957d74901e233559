//===- Expert.cpp - The built-in expert policy ----------------------------===//

#include "stark/Search/Expert.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::stark;

/// Total size of a point's numeric parameters: what "smaller" means.
static double pointSize(const std::map<std::string, std::string> &params) {
  double total = 1;
  for (const auto &[name, value] : params)
    if (double s = getParamSize(value); s > 0)
      total *= s;
  return total;
}

ExpertAgents::ExpertAgents(CandidateSpace &space) : space(space) {}

std::optional<size_t> ExpertAgents::indexOf(const SearchNode &node) const {
  const std::vector<StrategyPoint> &points = space.getPoints();
  for (size_t i = 0; i < points.size(); ++i)
    if (points[i].family == node.strategy && points[i].params == node.params)
      return i;
  return std::nullopt;
}

void ExpertAgents::markTried(const SearchNode &node) {
  if (std::optional<size_t> i = indexOf(node))
    tried.insert(space.getPoints()[*i].key());
}

std::vector<size_t>
ExpertAgents::neighbours(const SearchNode &node,
                         std::vector<std::string> &changed) const {
  struct Entry {
    size_t index;
    std::string key;
    double distance;
  };
  std::vector<Entry> entries;
  const std::vector<StrategyPoint> &points = space.getPoints();
  for (size_t i = 0; i < points.size(); ++i) {
    const StrategyPoint &p = points[i];
    if (p.family != node.strategy || tried.count(p.key()) ||
        p.params.size() != node.params.size())
      continue;
    std::string differing;
    int differences = 0;
    for (const auto &[name, value] : p.params) {
      auto it = node.params.find(name);
      if (it == node.params.end()) {
        differences = 2;
        break;
      }
      if (it->second != value) {
        ++differences;
        differing = name;
      }
    }
    if (differences != 1)
      continue;
    double a = getParamSize(p.params.at(differing));
    double b = getParamSize(node.params.at(differing));
    // Sizes are compared in octaves; a change of a non-numeric choice
    // (a lowering) ranks after the one-octave size changes.
    double distance = a > 0 && b > 0 ? std::abs(std::log2(a / b)) : 1.5;
    entries.push_back({i, differing, distance});
  }
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const Entry &x, const Entry &y) { return x.distance < y.distance; });
  std::vector<size_t> order;
  for (const Entry &e : entries) {
    order.push_back(e.index);
    changed.push_back(e.key);
  }
  return order;
}

std::optional<Proposal> ExpertAgents::buildFirst(ArrayRef<size_t> order,
                                                 StringRef plan,
                                                 StringRef changedPart) {
  const std::vector<StrategyPoint> &points = space.getPoints();
  for (size_t i : order) {
    const StrategyPoint &p = points[i];
    if (!tried.insert(p.key()).second)
      continue;
    std::string error;
    FailureOr<std::string> text = buildPoint(i, error);
    if (failed(text)) {
      lastBuildError = error; // the coder could not realise it: the next
      continue;
    }
    Proposal proposal;
    proposal.node.strategy = p.family;
    proposal.node.params = p.params;
    proposal.node.plan = (plan + ": " + p.description).str();
    proposal.node.changedPart = changedPart.str();
    proposal.payload = std::move(*text);
    return proposal;
  }
  return std::nullopt;
}

FailureOr<std::string> ExpertAgents::buildPoint(size_t i, std::string &error) {
  const StrategyPoint &p = space.getPoints()[i];
  auto it = anticipated.find(p.key());
  if (it == anticipated.end())
    return space.build(p, error);
  std::string text = std::move(it->second);
  anticipated.erase(it);
  return text;
}

std::vector<size_t>
ExpertAgents::rootOrder(ArrayRef<const SearchNode *> children) const {
  // From the baseline: the best guess of a family not yet tried from the
  // root, then the next best guesses.
  const std::vector<StrategyPoint> &points = space.getPoints();
  std::set<std::string> rootFamilies;
  for (const SearchNode *child : children)
    rootFamilies.insert(child->strategy);
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_partition(order.begin(), order.end(), [&](size_t i) {
    return !rootFamilies.count(points[i].family);
  });
  return order;
}

std::vector<std::string>
ExpertAgents::anticipate(llvm::ArrayRef<RoleContext> from, unsigned limit) {
  const std::vector<StrategyPoint> &points = space.getPoints();
  std::vector<std::string> texts;
  std::set<std::string> taken;
  for (const RoleContext &ctx : from) {
    if (texts.size() >= limit)
      break;
    if (ctx.selected->state == NodeState::Failed)
      continue;
    // From the root, the next proposals are each a family's best guess;
    // from another node, the first neighbour.
    bool isRoot = ctx.selected->id == 0;
    std::set<std::string> families;
    for (const SearchNode *child : ctx.children)
      families.insert(child->strategy);
    std::vector<std::string> changed;
    std::vector<size_t> order =
        isRoot ? rootOrder(ctx.children) : neighbours(*ctx.selected, changed);
    for (size_t i : order) {
      if (texts.size() >= limit)
        break;
      std::string key = points[i].key();
      if (tried.count(key) || taken.count(key) ||
          (isRoot && families.count(points[i].family)))
        continue;
      std::string error;
      auto it = anticipated.find(key);
      if (it == anticipated.end()) {
        FailureOr<std::string> text = space.build(points[i], error);
        if (failed(text))
          continue;
        it = anticipated.emplace(key, std::move(*text)).first;
      }
      taken.insert(key);
      texts.push_back(it->second);
      if (!isRoot)
        break;
      families.insert(points[i].family);
    }
  }
  return texts;
}

std::optional<Proposal> ExpertAgents::propose(const RoleContext &ctx) {
  if (ctx.selected->id == 0)
    return buildFirst(rootOrder(ctx.children), "new strategy from the baseline",
                      "all");
  std::vector<std::string> changed;
  std::vector<size_t> order = neighbours(*ctx.selected, changed);
  for (size_t k = 0; k < order.size(); ++k) {
    std::string plan =
        llvm::formatv("refine node {0} ({1:f2}x): change {2}", ctx.selected->id,
                      ctx.selected->speedup, changed[k])
            .str();
    if (std::optional<Proposal> p = buildFirst(order[k], plan, changed[k]))
      return p;
  }
  return std::nullopt;
}

std::optional<Proposal> ExpertAgents::repair(const RoleContext &ctx) {
  const SearchNode &failed = *ctx.selected;
  std::vector<std::string> changed;
  std::vector<size_t> order = neighbours(failed, changed);
  const std::vector<StrategyPoint> &points = space.getPoints();
  double failedSize = pointSize(failed.params);

  std::vector<size_t> preferred;
  std::vector<std::string> preferredParts;
  auto take = [&](llvm::function_ref<bool(size_t, StringRef)> accept) {
    for (size_t k = 0; k < order.size(); ++k)
      if (accept(order[k], changed[k])) {
        preferred.push_back(order[k]);
        preferredParts.push_back(changed[k]);
      }
  };
  if (failed.status == "wrong") {
    // Same tiles, another lowering: wrong results come from the lowering
    // more often than from tile sizes.
    take([&](size_t, StringRef part) { return part.ends_with("lowering"); });
  }
  // Otherwise (and then): a smaller variant, nearest first.
  take([&](size_t i, StringRef) {
    return pointSize(points[i].params) < failedSize;
  });
  for (size_t k = 0; k < preferred.size(); ++k) {
    std::string plan =
        llvm::formatv("repair node {0} ({1}: {2}): change {3}", failed.id,
                      failed.status,
                      StringRef(failed.failure).take_until([](char c) {
                        return c == '\n';
                      }),
                      preferredParts[k])
            .str();
    if (std::optional<Proposal> p =
            buildFirst(preferred[k], plan, preferredParts[k]))
      return p;
  }
  return std::nullopt;
}
