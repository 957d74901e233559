//===- StrategyRegistry.h - Every strategy family, by target ----*- C++ -*-===//
//
// The registry lists the strategy families of every target in one place
// (Families.def). Adding a family is one file defining it and one line
// registering it there.
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

// One create function per family, defined in the family's own file.
#define STARK_FAMILY(Name)                                                     \
  std::unique_ptr<StrategyFamily> create##Name##Family();
#include "stark/Strategies/Families.def"

} // namespace mlir::stark

#endif // STARK_STRATEGIES_STRATEGYREGISTRY_H
