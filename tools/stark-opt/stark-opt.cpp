//===- stark-opt.cpp - The stark optimizer driver -------------------------===//
//
// mlir-opt with stark's passes and only the dialects stark works on.
//
//===----------------------------------------------------------------------===//

#include "stark/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::stark::registerAllStarkDialects(registry);
  // The upstream clean-ups tests run after stark's passes.
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::stark::registerAllStarkPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "stark optimizer driver\n", registry));
}
