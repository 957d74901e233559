//===- PtxGuards.h - Rules on the PTX of model-written kernels --*- C++ -*-===//
//
// Checks on what the compiler produced, not on the source text: a kernel
// that a language model wrote is judged on the PTX that NVRTC (or the NVPTX
// backend) made of it, after the preprocessor, templates, inlining and
// inline assembly, so no spelling of the source can hide from them. The PTX
// is rejected when it has
//  - module state: a write to a `.global` or `.const` variable (storage
//    that outlives a launch and that the evaluator neither sees nor
//    resets), or a store of such a variable's address to memory (where no
//    check can follow it); a module-scope `.local` variable; a module-scope
//    `.shared` variable that is neither dynamic (`.extern .shared`) nor a
//    function-local `__shared__` array (NVRTC mangles those `_ZZ...`);
//    texture, surface and sampler references. Read-only module data is
//    fine: lookup tables, and the `static constexpr` members of templates,
//    which NVRTC emits as initialised `.global` variables;
//  - a call into the device runtime (an `.extern .func` other than
//    `__assertfail`: malloc, free, vprintf, device-side launches);
//  - a read of a clock or a counter (`%clock`, `%clock_hi`, `%clock64`,
//    `%globaltimer`, `%globaltimer_lo`, `%globaltimer_hi`, `%pm0`..`%pm7`);
//  - an atomic or reduction (`atom`, `red`, `cp.reduce.async.bulk`,
//    `multimem.red`) on global or generic memory whose address is not
//    reached from a kernel parameter; shared-memory atomics are fine;
//  - a write (store, atomic, bulk copy) to global or generic memory whose
//    address is derived from an input parameter, when the caller says how
//    many of the leading parameters are inputs: a cast can drop `const`
//    in C++, not in the compiled code.
// The address check follows values through registers, across calls of
// device functions and their return values, flow-insensitively: an address
// may mix a parameter with offsets of any origin (an index read from an
// input), but not with a module variable, the local stack, a function
// pointer or an unknown call's result, and it must come from a parameter or
// shared memory at all (not from a constant or a pointer loaded from
// memory).
//
// Plain text in, no MLIR: the rules run in CI on PTX text without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_PTXGUARDS_H
#define STARK_TARGET_PTXGUARDS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::stark {

struct PtxGuardOptions {
  /// The first `numInputs` parameters of every kernel are the problem's
  /// inputs, which no write may reach (0: no such rule).
  unsigned numInputs = 0;
  /// Allows module-scope `.shared` variables of any name: the NVPTX
  /// backend names the workgroup buffers of MLIR kernels itself.
  bool allowNamedShared = false;
};

/// One broken rule: which, where, and the PTX statement.
struct PtxViolation {
  /// Short name of the rule: "module state", "device runtime call",
  /// "clock read", "atomic on non-argument memory" or "write to an
  /// input".
  std::string rule;
  /// Why, in a sentence naming the symbol or register.
  std::string reason;
  /// 1-based line of the statement in the PTX text.
  unsigned line = 0;
  /// The statement, whitespace collapsed.
  std::string statement;

  /// "<rule>: <reason> (PTX line <line>: `<statement>`)".
  std::string describe() const;
};

/// The first violation of the rules in `ptx` (by line), or none.
std::optional<PtxViolation> findPtxViolation(llvm::StringRef ptx,
                                             const PtxGuardOptions &options);

} // namespace mlir::stark

#endif // STARK_TARGET_PTXGUARDS_H
