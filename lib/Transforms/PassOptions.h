//===- PassOptions.h - Option checks that several stark passes share ------===//

#ifndef STARK_LIB_TRANSFORMS_PASSOPTIONS_H
#define STARK_LIB_TRANSFORMS_PASSOPTIONS_H

#include "stark/Analysis/HardwareProfile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

namespace mlir::stark {

/// The hardware profile that a pass's `profile` option names; where none
/// has that name, an error on `module` from `passArg` lists the known ones.
inline std::optional<HardwareProfile>
lookupProfileOption(ModuleOp module, StringRef passArg, StringRef profile) {
  std::optional<HardwareProfile> hw = lookupHardwareProfile(profile);
  if (!hw)
    module.emitError() << passArg << ": unknown hardware profile '" << profile
                       << "'; expected one of: "
                       << llvm::join(getHardwareProfileNames(), ", ");
  return hw;
}

} // namespace mlir::stark

#endif // STARK_LIB_TRANSFORMS_PASSOPTIONS_H
