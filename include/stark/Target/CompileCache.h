//===- CompileCache.h - Compiled candidates kept on disk --------*- C++ -*-===//
//
// A search compiles the same candidate more than once: the contenders are
// timed again, the winner runs under compute-sanitizer, a first pick is
// judged again as a seed, and the next compile of a model meets the
// problems it met before. The compile cache keeps what a compiler produced
// (NVRTC's PTX and cubin), keyed by a SHA-256 over everything the output
// depends on: the source, the options, the chip, the compiler's and stark's
// versions.
//
// An entry is written by the process that compiled it, right after the
// compile and before any candidate code runs in it; a candidate cannot
// name files to write (the JIT resolves only an allow-list of runtime
// symbols, device code has no file access). What is read back goes
// through the same guards as a fresh compile.
//
//===----------------------------------------------------------------------===//

#ifndef STARK_TARGET_COMPILECACHE_H
#define STARK_TARGET_COMPILECACHE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stark {

class CompileCache {
public:
  /// A cache in `directory`; an empty one is a cache that is off.
  explicit CompileCache(std::string directory);

  /// The process's cache: $STARK_COMPILE_CACHE names its directory ("off"
  /// or "0" turns it off); by default $XDG_CACHE_HOME/stark/compile, else
  /// $HOME/.cache/stark/compile, else off.
  static CompileCache &getDefault();

  bool isEnabled() const { return !directory.empty(); }
  StringRef getDirectory() const { return directory; }

  /// The key of the parts, in order (each counted by its length, so no two
  /// lists of parts share a key), with stark's and LLVM's versions.
  static std::string makeKey(ArrayRef<StringRef> parts);

  /// The blobs stored under `kind`/`key`; nullopt when the cache is off,
  /// there is no such entry or it is malformed.
  std::optional<std::vector<std::string>> lookup(StringRef kind, StringRef key);
  /// Stores `blobs` under `kind`/`key` (written aside and renamed, so a
  /// concurrent reader sees the whole entry or none). Failures are silent:
  /// a cache that cannot be written is a cache that misses.
  void store(StringRef kind, StringRef key, ArrayRef<std::string> blobs);

  unsigned getHits() const { return hits; }
  unsigned getMisses() const { return misses; }

private:
  std::string pathOf(StringRef kind, StringRef key) const;

  std::string directory;
  std::atomic<unsigned> hits{0}, misses{0};
};

} // namespace mlir::stark

#endif // STARK_TARGET_COMPILECACHE_H
