//===- StrategyRegistry.h - Every strategy family, by target ----*- C++ -*-===//
//
// The registry lists the strategy families of every target in one place
// (StrategyRegistry.cpp). Adding a family is one file defining it and one
// line registering it there.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_STRATEGIES_STRATEGYREGISTRY_H
#define STARK_STRATEGIES_STRATEGYREGISTRY_H

#include "stark/Strategies/StrategyFamily.h"

#include "mlir/Support/LLVM.h"

#include <memory>
#include <vector>

namespace mlir::stark {

class StrategyRegistry {
public:
  /// The registry of every family stark has, built on first use.
  static const StrategyRegistry &get();

  void add(std::unique_ptr<StrategyFamily> family);
  /// The families of `target`, in registration order.
  SmallVector<const StrategyFamily *> getFamilies(StringRef target) const;
  /// The family called `name`, or null.
  const StrategyFamily *lookup(StringRef name) const;

private:
  std::vector<std::unique_ptr<StrategyFamily>> families;
};

// The families of each kind, one create function each (defined in the
// family's own file).
std::unique_ptr<StrategyFamily> createGemmF32Family();
std::unique_ptr<StrategyFamily> createGemm3xTf32Family();
std::unique_ptr<StrategyFamily> createGemmFamily();
std::unique_ptr<StrategyFamily> createGemmTcFamily();
std::unique_ptr<StrategyFamily> createGemmWgmmaFamily();
std::unique_ptr<StrategyFamily> createElementwiseFamily();
std::unique_ptr<StrategyFamily> createReduceRowFamily();
std::unique_ptr<StrategyFamily> createReduceColFamily();
std::unique_ptr<StrategyFamily> createSoftmaxFamily();
std::unique_ptr<StrategyFamily> createLayerNormFamily();
std::unique_ptr<StrategyFamily> createRmsNormFamily();
std::unique_ptr<StrategyFamily> createFusedRowsFamily();
std::unique_ptr<StrategyFamily> createScanFamily();
std::unique_ptr<StrategyFamily> createConvFamily();
std::unique_ptr<StrategyFamily> createDirectFamily();
std::unique_ptr<StrategyFamily> createTdMatmulFamily();
std::unique_ptr<StrategyFamily> createTdElementwiseFamily();
std::unique_ptr<StrategyFamily> createTdReduceFamily();
std::unique_ptr<StrategyFamily> createCpuTileVectorizeFamily();
std::unique_ptr<StrategyFamily> createCpuWindowVectorizeFamily();
std::unique_ptr<StrategyFamily> createCpuSoftmaxRowsFamily();
std::unique_ptr<StrategyFamily> createCpuTileLoopsFamily();
std::unique_ptr<StrategyFamily> createCpuFusedRowsFamily();

} // namespace mlir::stark

#endif // STARK_STRATEGIES_STRATEGYREGISTRY_H
