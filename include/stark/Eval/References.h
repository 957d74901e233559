//===- References.h - Reference outputs computed once per problem -*- C++
//-*-===//
//
// The baseline's and the high-precision reference's outputs on a trial input
// depend on the problem, the target, the seed and the trial, never on the
// candidate. A search therefore computes them once, in its evaluation of
// the problem against itself, and stores them in a directory; the
// evaluation of every candidate reads them instead of running the two
// references again (docs/evaluation.md, "Reference reuse"). Only an
// evaluation asked to write runs the problem's code into the store;
// candidate workers only read it, and every file is read-only once written.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_EVAL_REFERENCES_H
#define STARK_EVAL_REFERENCES_H

#include "stark/Eval/Inputs.h"
#include "stark/Target/Target.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::stark {

/// `spec` as the high-precision reference sees it: float kinds narrower
/// than `wide` widened to it, everything else unchanged.
ArgSpec widenSpec(const ArgSpec &spec, ElementKind wide);

/// What the problem's own evaluation decided about its high-precision
/// reference (its element kind, or none with the flags and notes that say
/// why), under a key naming everything the references depend on.
struct ReferenceManifest {
  /// Problem fingerprint, target, seed and reference options.
  std::string key;
  std::optional<ElementKind> highKind;
  std::vector<std::string> flags;
  std::vector<std::string> notes;
};

class ReferenceStore {
public:
  /// `maxBytes` bounds what a writer stores in all; trial inputs beyond it
  /// are left out (their candidates compute the references themselves).
  ReferenceStore(StringRef dir, bool writable, uint64_t maxBytes);

  bool isWritable() const { return writable; }

  LogicalResult writeManifest(const ReferenceManifest &manifest,
                              std::string &error);
  /// The manifest, when there is one for `key`.
  std::optional<ReferenceManifest> readManifest(StringRef key) const;

  /// Reads the stored outputs of trial input (seed, d): the baseline's into
  /// `baseline` and the high-precision reference's (element kind
  /// `highKind`) into `high`, where those are given. Each vector gets one
  /// buffer per argument of `signature`; inputs get empty placeholders.
  /// False, with nothing read, unless every asked output is stored and has
  /// the expected size.
  bool load(uint64_t seed, Distribution d, const KernelSignature &signature,
            std::vector<HostBuffer> *baseline,
            std::optional<ElementKind> highKind,
            std::vector<HostBuffer> *high) const;

  /// Stores the outputs of trial input (seed, d) from full argument vectors
  /// (either may be null). Returns false when the byte limit leaves it out.
  FailureOr<bool> save(uint64_t seed, Distribution d,
                       const KernelSignature &signature,
                       const std::vector<HostBuffer> *baseline,
                       std::optional<ElementKind> highKind,
                       const std::vector<HostBuffer> *high, std::string &error);

private:
  std::string dir;
  bool writable;
  uint64_t maxBytes;
  uint64_t bytesWritten = 0;
};

} // namespace mlir::stark

#endif // STARK_EVAL_REFERENCES_H
