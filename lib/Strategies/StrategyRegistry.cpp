//===- StrategyRegistry.cpp - Every strategy family, by target ------------===//

#include "stark/Strategies/StrategyRegistry.h"

using namespace mlir;
using namespace mlir::stark;

/// The families, one line each. Within a target, registration order is the
/// order of families that do not rank themselves (StrategyFamily::getRank).
static void registerAllFamilies(StrategyRegistry &registry) {
  // CUDA C++ templates (docs/cuda-templates.md).
  registry.add(createGemmF32Family());
  registry.add(createGemm3xTf32Family());
  registry.add(createGemmFamily());
  registry.add(createGemmTcFamily());
  registry.add(createGemmWgmmaFamily());
  registry.add(createElementwiseFamily());
  registry.add(createReduceRowFamily());
  registry.add(createReduceColFamily());
  registry.add(createSoftmaxFamily());
  registry.add(createLayerNormFamily());
  registry.add(createRmsNormFamily());
  registry.add(createFusedRowsFamily());
  registry.add(createScanFamily());
  registry.add(createConvFamily());
  registry.add(createDirectFamily());
  // CUDA transform-dialect schedules (docs/cuda-schedules.md), after the
  // templates.
  registry.add(createTdMatmulFamily());
  registry.add(createTdElementwiseFamily());
  registry.add(createTdReduceFamily());
  // Host schedules (docs/cpu-target.md).
  registry.add(createCpuTileVectorizeFamily());
  registry.add(createCpuWindowVectorizeFamily());
  registry.add(createCpuSoftmaxRowsFamily());
  registry.add(createCpuFusedRowsFamily());
  registry.add(createCpuTileLoopsFamily());
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
