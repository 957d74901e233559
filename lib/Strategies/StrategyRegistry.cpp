//===- StrategyRegistry.cpp - Every strategy family, by target ------------===//

#include "stark/Strategies/StrategyRegistry.h"

using namespace mlir;
using namespace mlir::stark;

/// The families of Families.def, in its order.
static void registerAllFamilies(StrategyRegistry &registry) {
#define STARK_FAMILY(Name) registry.add(create##Name##Family());
#include "stark/Strategies/Families.def"
}

const StrategyRegistry &StrategyRegistry::get() {
  static const StrategyRegistry registry = [] {
    StrategyRegistry r;
    registerAllFamilies(r);
    return r;
  }();
  return registry;
}

void StrategyRegistry::add(std::unique_ptr<StrategyFamily> family) {
  assert(!lookup(family->getName()) && "family registered twice");
  families.push_back(std::move(family));
}

SmallVector<const StrategyFamily *>
StrategyRegistry::getFamilies(StringRef target) const {
  SmallVector<const StrategyFamily *> out;
  for (const auto &family : families)
    if (family->getTarget() == target)
      out.push_back(family.get());
  return out;
}

const StrategyFamily *StrategyRegistry::lookup(StringRef name) const {
  for (const auto &family : families)
    if (family->getName() == name)
      return family.get();
  return nullptr;
}
