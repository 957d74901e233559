//===- TypedParams.cpp - A candidate's parameters as typed attributes -----===//

#include "stark/Dialect/TypedParams.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::stark;

/// A plain decimal number: an optional sign, digits with at most one point,
/// an optional exponent. (StringRef::getAsDouble also takes "inf", "nan"
/// and hexadecimal forms, which a parameter spelled so means as a word.)
static bool isDecimalNumber(StringRef s) {
  s.consume_front("-") || s.consume_front("+");
  size_t mantissa = s.find_first_not_of("0123456789.");
  StringRef digits = s.take_front(mantissa);
  if (digits.empty() || digits.count('.') > 1 ||
      digits.find_first_of("0123456789") == StringRef::npos)
    return false;
  StringRef exponent = s.drop_front(digits.size());
  if (exponent.empty())
    return true;
  if (!exponent.consume_front("e") && !exponent.consume_front("E"))
    return false;
  exponent.consume_front("-") || exponent.consume_front("+");
  return !exponent.empty() && llvm::all_of(exponent, llvm::isDigit);
}

Attribute mlir::stark::getTypedParamAttr(MLIRContext *context,
                                         StringRef value) {
  Builder b(context);
  int64_t integer;
  if (!value.getAsInteger(10, integer))
    return b.getI64IntegerAttr(integer);
  if (value == "true" || value == "false")
    return b.getBoolAttr(value == "true");
  double number;
  if (isDecimalNumber(value) && !value.getAsDouble(number))
    return b.getF64FloatAttr(number);
  return b.getStringAttr(value);
}

DictionaryAttr mlir::stark::getTypedParamsAttr(
    MLIRContext *context, const std::map<std::string, std::string> &params) {
  Builder b(context);
  SmallVector<NamedAttribute> named;
  for (const auto &[name, value] : params)
    named.push_back(b.getNamedAttr(name, getTypedParamAttr(context, value)));
  return b.getDictionaryAttr(named);
}

bool mlir::stark::isTypedParamValue(Attribute value) {
  return isa<IntegerAttr, FloatAttr, BoolAttr, StringAttr>(value);
}
