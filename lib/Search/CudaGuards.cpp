//===- CudaGuards.cpp - Checks on model-written CUDA C++ ------------------===//

#include "stark/Search/CudaGuards.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::stark;

std::string mlir::stark::stripCommentsAndStrings(StringRef source,
                                                 bool keepStrings) {
  std::string out;
  out.reserve(source.size());
  enum { Code, Line, Block, String, Char } state = Code;
  for (size_t i = 0; i < source.size(); ++i) {
    char c = source[i];
    char next = i + 1 < source.size() ? source[i + 1] : '\0';
    switch (state) {
    case Code:
      if (c == '/' && next == '/') {
        state = Line;
        ++i;
      } else if (c == '/' && next == '*') {
        state = Block;
        out += ' ';
        ++i;
      } else if (c == '"' && keepStrings) {
        out += c;
        state = String;
      } else if (c == '"') {
        state = String;
        out += "\"\"";
      } else if (c == '\'') {
        state = Char;
        out += "' '";
      } else {
        out += c;
      }
      break;
    case Line:
      if (c == '\n') {
        state = Code;
        out += c;
      }
      break;
    case Block:
      if (c == '*' && next == '/') {
        state = Code;
        ++i;
      } else if (c == '\n') {
        out += c;
      }
      break;
    case String:
    case Char:
      if (state == String && keepStrings)
        out += c;
      if (c == '\\') {
        if (state == String && keepStrings && next)
          out += next;
        ++i;
      } else if ((state == String && c == '"') ||
                 (state == Char && c == '\'')) {
        state = Code;
      }
      break;
    }
  }
  return out;
}

namespace {
/// One textual rule: code matching `pattern` breaks it.
struct Rule {
  const char *pattern;
  const char *reason;
  /// Also looked for inside string literals (inline assembly).
  bool inStrings = false;
};
} // namespace

/// Rules on the code alone, independent of the problem.
static const Rule kRules[] = {
    {"(^|[^A-Za-z0-9_])main[ \t\n]*\\(", "host code: a main function"},
    {"__host__", "host code: a __host__ function"},
    {"<<<", "host code: a kernel launch (the evaluator launches the kernels "
            "the header names)"},
    {"(^|[^A-Za-z0-9_])cuda[A-Z][A-Za-z0-9_]*",
     "host code: a call of the CUDA runtime API"},
    {"(^|[^A-Za-z0-9_])cu[A-Z][A-Za-z0-9_]*[ \t\n]*\\(",
     "host code: a call of the CUDA driver API"},
    {"(^|[^A-Za-z0-9_])(CUstream|cudaStream[A-Za-z_]*|stream)([^A-Za-z0-9_]|$)",
     "streams: the evaluator times one stream"},
    {"std::thread|pthread|<thread>|fork[ \t]*\\(|std::async",
     "threads or processes"},
    {"(^|[^A-Za-z0-9_])clock(64)?[ \t\n]*\\(",
     "a timer: clock() reads the cycle counter"},
    {"globaltimer|%clock|%smid|%nsmid",
     "a timer or an SM id: a special register", /*inStrings=*/true},
    {"cudaEvent|std::chrono|gettimeofday|clock_gettime|__nanosleep",
     "a timer or a sleep"},
    {"#[ \t]*include[ \t]*<(cstdio|stdio\\.h|iostream|fstream|cstdlib|"
     "stdlib\\.h|unistd\\.h|sys/)",
     "host headers (I/O, processes)"},
    {"(^|[^A-Za-z0-9_])(malloc|free|printf|fopen|system|exit|abort)[ \t\n]*"
     "\\(",
     "host or device library calls that escape the kernel (allocation, "
     "I/O, exit)"},
    {"const_cast", "const_cast: writes through an input"},
    {"(^|[^A-Za-z0-9_])static[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+"
     "[A-Za-z_][A-Za-z0-9_]*[ \t]*(=|;|\\[)",
     "state that outlives a launch: a static variable"},
};

/// The parameter lists of the __global__ functions of `code`.
static SmallVector<std::pair<std::string, std::string>>
kernelSignatures(StringRef code) {
  SmallVector<std::pair<std::string, std::string>> kernels;
  llvm::Regex head("__global__[^(;{]*[ \t\n*&]([A-Za-z_][A-Za-z0-9_]*)[ "
                   "\t\n]*\\(");
  StringRef rest = code;
  SmallVector<StringRef> m;
  while (head.match(rest, &m)) {
    size_t open = m[0].data() - rest.data() + m[0].size();
    int depth = 1;
    size_t i = open;
    for (; i < rest.size() && depth > 0; ++i)
      depth += rest[i] == '(' ? 1 : rest[i] == ')' ? -1 : 0;
    kernels.emplace_back(m[1].str(), rest.slice(open, i - 1).str());
    rest = rest.drop_front(i);
  }
  return kernels;
}

/// Mutable variables at namespace scope (`__device__ float cache[...]`).
static bool hasMutableGlobal(StringRef code, std::string &name) {
  int depth = 0;
  SmallVector<StringRef> statements;
  std::string current;
  for (char c : code) {
    if (c == '{') {
      if (depth == 0)
        current.clear();
      ++depth;
      continue;
    }
    if (c == '}') {
      --depth;
      if (depth == 0)
        current.clear();
      continue;
    }
    if (depth > 0)
      continue;
    if (c == ';') {
      StringRef s = StringRef(current).trim();
      // A declaration with storage: __device__ or __managed__, not
      // constant, not a function declaration or a typedef.
      if ((s.contains("__device__") || s.contains("__managed__")) &&
          !s.contains("__constant__") && !s.contains("const ") &&
          !s.contains("(") && !s.starts_with("typedef") &&
          !s.starts_with("using")) {
        llvm::Regex ident("([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*(\\[[^]]*\\])*[ "
                          "\t\n]*(=.*)?$");
        SmallVector<StringRef> m;
        name = ident.match(s, &m) ? m[1].str() : s.str();
        return true;
      }
      current.clear();
      continue;
    }
    current += c;
  }
  return false;
}

/// The body of the kernel `name` (between its braces).
static StringRef kernelBody(StringRef code, StringRef name) {
  size_t at = code.find(("__global__"));
  while (at != StringRef::npos) {
    size_t open = code.find('{', at);
    size_t nameAt = code.find(name, at);
    if (open == StringRef::npos)
      return {};
    if (nameAt != StringRef::npos && nameAt < open) {
      int depth = 0;
      for (size_t i = open; i < code.size(); ++i) {
        depth += code[i] == '{' ? 1 : code[i] == '}' ? -1 : 0;
        if (depth == 0)
          return code.slice(open + 1, i);
      }
      return code.drop_front(open + 1);
    }
    at = code.find("__global__", at + 1);
  }
  return {};
}

LogicalResult mlir::stark::checkModelCuda(StringRef source,
                                          const CudaGuardOptions &options,
                                          std::string &reason) {
  std::string stripped = stripCommentsAndStrings(source);
  std::string withStrings =
      stripCommentsAndStrings(source, /*keepStrings=*/true);
  StringRef code = stripped;
  for (const Rule &rule : kRules) {
    llvm::Regex regex(rule.pattern, llvm::Regex::Newline);
    SmallVector<StringRef> m;
    if (regex.match(rule.inStrings ? withStrings : code, &m)) {
      reason = llvm::formatv("rejected by the guards: {0} ('{1}')", rule.reason,
                             m[0].trim())
                   .str();
      return failure();
    }
  }
  std::string global;
  if (hasMutableGlobal(code, global)) {
    reason = llvm::formatv("rejected by the guards: state that outlives a "
                           "launch: the mutable global '{0}'",
                           global)
                 .str();
    return failure();
  }
  auto kernels = kernelSignatures(code);
  if (kernels.empty()) {
    reason = "rejected by the guards: no __global__ kernel";
    return failure();
  }
  for (const auto &[name, params] : kernels) {
    SmallVector<StringRef> list;
    StringRef(params).split(list, ',', -1, /*KeepEmpty=*/false);
    unsigned pointer = 0;
    SmallVector<std::string> outputs;
    for (StringRef param : list) {
      param = param.trim();
      if (!param.contains('*'))
        continue;
      // `const T *p` and `T const *p` keep the pointee read-only; only
      // `T *const p` does not.
      StringRef pointee = param.take_until([](char c) { return c == '*'; });
      bool readOnly = llvm::is_contained(llvm::split(pointee, ' '), "const");
      llvm::Regex last("([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*$");
      SmallVector<StringRef> m;
      std::string paramName = last.match(param, &m) ? m[1].str() : "";
      if (pointer < options.numInputs && !readOnly) {
        reason = llvm::formatv("rejected by the guards: kernel '{0}' may "
                               "write through input '{1}' (pointer parameter "
                               "{2}); declare every input `const`",
                               name, paramName, pointer)
                     .str();
        return failure();
      }
      if (pointer >= options.numInputs)
        outputs.push_back(paramName);
      ++pointer;
    }
    StringRef body = kernelBody(code, name);
    for (const std::string &out : outputs) {
      if (out.empty())
        continue;
      // An output compared to something is an answer cache.
      llvm::Regex compared(
          "(^|[^A-Za-z0-9_])" + out +
          "[ \t\n]*\\[[^]]*\\][ \t\n]*(==|!=|<=|>=|<[^<]|>[^>])|(==|!=)[ "
          "\t\n]*" +
          out + "[ \t\n]*\\[");
      if (compared.match(body)) {
        reason = llvm::formatv("rejected by the guards: kernel '{0}' "
                               "compares output '{1}' (reading an output "
                               "as an answer cache)",
                               name, out)
                     .str();
        return failure();
      }
      if (options.outputsAreRead)
        continue;
      // The first subscripted use of the output must be a plain store. A
      // member (`v.y`) is another name; a bare pointer use (`y + i`) cannot
      // be followed and is let through.
      llvm::Regex use("(^|[^A-Za-z0-9_.])" + out +
                      "[ \t\n]*(\\[[^]]*\\])[ \t\n]*(=[^=]|\\+=|-=|\\*=|/=)?");
      SmallVector<StringRef> m;
      if (use.match(body, &m) && !m[3].starts_with("=")) {
        reason = llvm::formatv("rejected by the guards: kernel '{0}' reads "
                               "output '{1}' before writing it, and the "
                               "problem does not read its outputs (an "
                               "answer cache)",
                               name, out)
                     .str();
        return failure();
      }
    }
  }
  return success();
}
