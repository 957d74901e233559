//===- FrontendConversions.h - What ML frontends leave, and their way in -===//
//
// The dialects that torch-mlir's linalg-on-tensors output, IREE's input
// conversion and the TOSA-to-linalg path leave at the linalg level, and the
// few upstream conversions that bring the rest of such a model down to
// linalg. stark-opt registers these so a model export parses and runs
// through `--tosa-to-linalg-pipeline --stark-pipeline` in one command; only
// the passes listed here are linked, not every upstream pass.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TRANSFORMS_FRONTENDCONVERSIONS_H
#define STARK_TRANSFORMS_FRONTENDCONVERSIONS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::stark {

/// ml_program, tosa, shape, complex, sparse_tensor, cf, ... and the
/// external models (bufferization, inferred result types) their ops need
/// in the conversions and in one-shot bufferization.
void registerFrontendDialects(DialectRegistry &registry);

/// `tosa-to-linalg-pipeline` and its parts, the conversions of shape,
/// complex and tensor ops to standard dialects and linalg, named-op
/// generalisation, element-wise fusion, one-shot bufferization, inlining
/// and symbol DCE.
void registerFrontendConversionPasses();

} // namespace mlir::stark

#endif // STARK_TRANSFORMS_FRONTENDCONVERSIONS_H
