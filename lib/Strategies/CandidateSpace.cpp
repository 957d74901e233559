//===- CandidateSpace.cpp - Strategy points and candidate spaces ----------===//

#include "stark/Strategies/CandidateSpace.h"
#include "stark/Dialect/StarkDialect.h"

using namespace mlir;
using namespace mlir::stark;

CandidateSpace::~CandidateSpace() = default;

FailureOr<std::map<std::string, int64_t>>
mlir::stark::getIntegerParams(const StrategyPoint &point, std::string &error) {
  std::map<std::string, int64_t> params;
  for (const auto &[name, value] : point.params) {
    int64_t v;
    if (StringRef(value).getAsInteger(10, v)) {
      error = "parameter " + name + " is not an integer: " + value;
      return failure();
    }
    params[name] = v;
  }
  return params;
}

std::string mlir::stark::printCandidate(ModuleOp candidate) {
  // What the problem module says of itself and of its search is not part
  // of a candidate.
  for (StringRef name :
       {StringRef(kProblemAttrName), StringRef(kUnfusedAttrName),
        StringRef(kBaselineAttrName), StringRef(kWinnerAttrName)})
    candidate->removeAttr(name);
  std::string text;
  llvm::raw_string_ostream os(text);
  candidate->print(os);
  return text;
}

std::string StrategyPoint::key() const {
  std::string k = family;
  for (const auto &[name, value] : params)
    k += ";" + name + "=" + value;
  return k;
}

double mlir::stark::getParamSize(StringRef value) {
  double product = 1;
  bool any = false;
  while (!value.empty()) {
    size_t start = value.find_first_of("0123456789");
    if (start == StringRef::npos)
      break;
    value = value.drop_front(start);
    size_t end = value.find_first_not_of("0123456789");
    StringRef digits = value.take_front(end);
    value = value.drop_front(digits.size());
    double v = 0;
    if (!digits.getAsDouble(v)) {
      product *= v;
      any = true;
    }
  }
  return any ? product : 0;
}
