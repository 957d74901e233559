//===- TypedParams.h - A candidate's parameters as typed attributes -*- C++
//-*-===//
//
// The families enumerate their parameters as printed values (name ->
// "64"); the IR keeps them by what they are, so that a reader of a
// `#stark.winner` compares and sorts numbers as numbers.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_DIALECT_TYPEDPARAMS_H
#define STARK_DIALECT_TYPEDPARAMS_H

#include "mlir/IR/BuiltinAttributes.h"

#include <map>
#include <string>

namespace mlir::stark {

/// The attribute of one printed parameter value: a 64-bit integer, a
/// boolean (`true`, `false`), any other decimal number as f64, anything
/// else a string.
Attribute getTypedParamAttr(MLIRContext *context, StringRef value);

/// `params` as a dictionary of getTypedParamAttr values.
DictionaryAttr
getTypedParamsAttr(MLIRContext *context,
                   const std::map<std::string, std::string> &params);

/// Whether `value` is one of the kinds getTypedParamAttr makes (what a
/// parameter of `#stark.winner` may be).
bool isTypedParamValue(Attribute value);

} // namespace mlir::stark

#endif // STARK_DIALECT_TYPEDPARAMS_H
