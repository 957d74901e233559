//===- stark-opt.cpp - The stark optimizer driver -------------------------===//
//
// mlir-opt with stark's passes, the dialects stark works on and the way
// from an ML frontend's export down to linalg.
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
  mlir::stark::registerFrontendSupport(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "stark optimizer driver\n", registry));
}
