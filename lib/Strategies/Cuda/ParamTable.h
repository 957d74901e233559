//===- ParamTable.h - A template family's parameters as a struct ----------===//
//
// Every CUDA template family keeps its parameters in a struct of its own
// and names its fields once, in a table of ParamField: the family's points
// (TemplateParams, the strings of #stark.winner) are written from the
// structs its enumeration returns, and the parameters of a point are read
// back into a struct, unknown names refused, before it generates.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_LIB_STRATEGIES_CUDA_PARAMTABLE_H
#define STARK_LIB_STRATEGIES_CUDA_PARAMTABLE_H

#include "CudaTemplatesInternal.h"

#include <array>
#include <cassert>
#include <memory>
#include <optional>
#include <type_traits>

namespace mlir::stark::cudatpl {

/// A parameter of a family: a named integer or flag field of its struct P.
/// A field with `omittedAt` is left out of the parameter sets where it has
/// that value (a split of 1: no split), so that the points of a problem
/// that does not need it read as they always did.
template <class P> struct ParamField {
  ParamField(StringRef name, int64_t P::*value,
             std::optional<int64_t> omittedAt = std::nullopt)
      : name(name), value(value), omittedAt(omittedAt) {}
  ParamField(StringRef name, bool P::*flag) : name(name), flag(flag) {}

  int64_t get(const P &p) const { return value ? p.*value : int64_t(p.*flag); }
  void set(P &p, int64_t v) const {
    if (value)
      p.*value = v;
    else
      p.*flag = v != 0;
  }

  StringRef name;
  int64_t P::*value = nullptr;
  bool P::*flag = nullptr;
  std::optional<int64_t> omittedAt;
};

/// A family's table of configurations: a struct per row, `defaults` with
/// the fields named by `columns` set from the row.
template <class P, size_t N>
std::vector<P> makeStructs(const P &defaults, ArrayRef<ParamField<P>> fields,
                           const std::array<StringRef, N> &columns,
                           ArrayRef<std::array<int64_t, N>> rows) {
  std::vector<const ParamField<P> *> byColumn;
  for (StringRef column : columns) {
    const ParamField<P> *field = llvm::find_if(
        fields, [&](const ParamField<P> &f) { return f.name == column; });
    assert(field != fields.end() && "a column that is not a parameter");
    byColumn.push_back(field);
  }
  std::vector<P> out;
  for (const std::array<int64_t, N> &row : rows) {
    P p = defaults;
    for (size_t c = 0; c < N; ++c)
      byColumn[c]->set(p, row[c]);
    out.push_back(p);
  }
  return out;
}

/// Records every field of `p` in the plan's parameters (but those at their
/// `omittedAt`).
template <class P>
void setParams(CudaKernelPlan &plan, const P &p,
               ArrayRef<ParamField<P>> fields) {
  for (const ParamField<P> &field : fields)
    if (field.get(p) != field.omittedAt)
      setParam(plan, field.name, field.get(p));
}

/// A family whose parameter sets are the structs P: it enumerates and
/// generates structs, the conversions are the fields' (every template
/// family's parameters go through this one table type).
template <class P> class StructParamFamily : public CudaTemplateFamily {
public:
  StructParamFamily(StringRef name, ArrayRef<ParamField<P>> fields,
                    P defaults = P())
      : CudaTemplateFamily(name), fields(fields), defaults(defaults) {}

  std::vector<TemplateParams> enumerate(const ProblemView &view,
                                        const HardwareProfile &profile,
                                        bool allowTf32) const final {
    std::vector<TemplateParams> out;
    for (const P &p : enumerateStructs(view, profile, allowTf32)) {
      TemplateParams params;
      for (const ParamField<P> &field : fields)
        if (field.get(p) != field.omittedAt)
          params[field.name.str()] = field.get(p);
      out.push_back(std::move(params));
    }
    return out;
  }

  FailureOr<CudaKernelPlan> generate(const ProblemView &view,
                                     const TemplateParams &params,
                                     std::string &whyNot) const final {
    P p = defaults;
    SmallVector<int64_t> values;
    for (const ParamField<P> &field : fields)
      values.push_back(field.get(p));
    SmallVector<std::pair<StringRef, int64_t *>> slots;
    for (auto [field, value] : llvm::zip_equal(fields, values))
      slots.push_back({field.name, &value});
    if (failed(takeParams(params, slots, whyNot)))
      return failure();
    for (auto [field, value] : llvm::zip_equal(fields, values))
      field.set(p, value);
    // The plan records the parameters it was made of, as the points name
    // them.
    FailureOr<CudaKernelPlan> plan = generateStruct(view, p, whyNot);
    if (succeeded(plan))
      setParams(*plan, p, fields);
    return plan;
  }

protected:
  /// The parameter sets worth trying, best guess first.
  virtual std::vector<P> enumerateStructs(const ProblemView &view,
                                          const HardwareProfile &profile,
                                          bool allowTf32) const = 0;
  virtual FailureOr<CudaKernelPlan>
  generateStruct(const ProblemView &view, const P &p,
                 std::string &whyNot) const = 0;

  ArrayRef<ParamField<P>> fields;
  P defaults;
};

/// What parts of a problem a family's kernels compute besides the op
/// itself (CudaTemplateFamily::handlesInitValue and the like).
struct FamilyTraits {
  bool initValue = false;
  bool epilogue = false;
  bool operandPrologues = false;
};

/// A family that is its functions: rank(view, allowTf32), check(view,
/// [allowTf32,] whyNot), enumerate(view, profile[, allowTf32]) returning
/// structs P, and generate(view, p, whyNot).
template <class P, class Rank, class Check, class Enumerate, class Generate>
class FunctionFamily final : public StructParamFamily<P> {
public:
  FunctionFamily(StringRef name, ArrayRef<ParamField<P>> fields,
                 FamilyTraits traits, Rank rank, Check check,
                 Enumerate enumerate, Generate generate)
      : StructParamFamily<P>(name, fields), traits(traits),
        rankFn(std::move(rank)), checkFn(std::move(check)),
        enumerateFn(std::move(enumerate)), generateFn(std::move(generate)) {}

  std::optional<unsigned> rank(const ProblemView &view,
                               bool allowTf32) const override {
    return rankFn(view, allowTf32);
  }
  LogicalResult check(const ProblemView &view, bool allowTf32,
                      std::string &whyNot) const override {
    if constexpr (std::is_invocable_v<const Check &, const ProblemView &,
                                      std::string &>)
      return checkFn(view, whyNot);
    else
      return checkFn(view, allowTf32, whyNot);
  }
  bool handlesInitValue() const override { return traits.initValue; }
  bool handlesEpilogue() const override { return traits.epilogue; }
  bool handlesOperandPrologues() const override {
    return traits.operandPrologues;
  }

protected:
  std::vector<P> enumerateStructs(const ProblemView &view,
                                  const HardwareProfile &profile,
                                  bool allowTf32) const override {
    if constexpr (std::is_invocable_v<const Enumerate &, const ProblemView &,
                                      const HardwareProfile &>)
      return enumerateFn(view, profile);
    else
      return enumerateFn(view, profile, allowTf32);
  }
  FailureOr<CudaKernelPlan> generateStruct(const ProblemView &view, const P &p,
                                           std::string &whyNot) const override {
    return generateFn(view, p, whyNot);
  }

private:
  FamilyTraits traits;
  Rank rankFn;
  Check checkFn;
  Enumerate enumerateFn;
  Generate generateFn;
};

/// The rank function of a family that takes the problems of one ranking
/// kind only, all of them at `band`.
inline auto rankOnly(RankingKind kind, unsigned band) {
  return
      [kind, band](const ProblemView &view, bool) -> std::optional<unsigned> {
        if (getRankingKind(view) != kind)
          return std::nullopt;
        return band;
      };
}

/// The family called `name` with the parameter table `fields`, made of its
/// functions (FunctionFamily).
template <class P, class Rank, class Check, class Enumerate, class Generate>
std::unique_ptr<StrategyFamily>
makeFunctionFamily(StringRef name, ArrayRef<ParamField<P>> fields,
                   FamilyTraits traits, Rank rank, Check check,
                   Enumerate enumerate, Generate generate) {
  return std::make_unique<FunctionFamily<P, Rank, Check, Enumerate, Generate>>(
      name, fields, traits, std::move(rank), std::move(check),
      std::move(enumerate), std::move(generate));
}

} // namespace mlir::stark::cudatpl

#endif // STARK_LIB_STRATEGIES_CUDA_PARAMTABLE_H
