//===- StarkPlugin.cpp - stark's passes as an mlir-opt pass plugin --------===//

#include "stark/InitAll.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "StarkPasses", LLVM_VERSION_STRING,
          []() { ::mlir::stark::registerAllStarkPasses(); }};
}
