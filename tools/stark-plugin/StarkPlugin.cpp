//===- StarkPlugin.cpp - stark's passes and dialect as mlir-opt plugins ---===//

#include "stark/InitAll.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "StarkPasses", LLVM_VERSION_STRING,
          []() { ::mlir::stark::registerAllStarkPasses(); }};
}

// With --load-dialect-plugin, mlir-opt parses IR that carries stark's
// attributes (#stark.cost, #stark.problem, ...).
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "StarkDialect", LLVM_VERSION_STRING,
          [](::mlir::DialectRegistry *registry) {
            ::mlir::stark::registerStarkDialect(*registry);
          }};
}
