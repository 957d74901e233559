//===- PtxGuards.cpp - Rules on the PTX of model-written kernels ----------===//

#include "stark/Target/PtxGuards.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

#include <vector>

using namespace mlir::stark;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;

std::string PtxViolation::describe() const {
  return llvm::formatv("{0}: {1} (PTX line {2}: `{3}`)", rule, reason, line,
                       statement)
      .str();
}

//===----------------------------------------------------------------------===//
// Reading PTX
//===----------------------------------------------------------------------===//

namespace {

/// One statement without comments, whitespace collapsed, and the line it
/// starts on.
struct Statement {
  std::string text;
  unsigned line = 0;
};

struct Function {
  std::string name;
  bool entry = false;
  unsigned line = 0;
  SmallVector<std::string> params;
  SmallVector<std::string> results;
  std::vector<Statement> body;
};

struct PtxModule {
  /// Variable and function declarations at module scope.
  std::vector<Statement> decls;
  std::vector<Function> functions;
};

bool isIdentStart(char c) {
  return llvm::isAlpha(c) || c == '_' || c == '$' || c == '%';
}
bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_' || c == '$'; }

std::string collapse(StringRef text) {
  std::string out;
  for (char c : text) {
    if (llvm::isSpace(c)) {
      if (!out.empty() && out.back() != ' ')
        out += ' ';
      continue;
    }
    out += c;
  }
  if (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

/// `ptx` with comments blanked (newlines kept, so lines stay where they
/// were).
std::string blankComments(StringRef ptx) {
  std::string out = ptx.str();
  enum { Code, Line, Block, String } state = Code;
  for (size_t i = 0; i < out.size(); ++i) {
    char c = out[i], next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
    case Code:
      if (c == '/' && next == '/') {
        state = Line;
        out[i] = out[i + 1] = ' ';
        ++i;
      } else if (c == '/' && next == '*') {
        state = Block;
        out[i] = out[i + 1] = ' ';
        ++i;
      } else if (c == '"') {
        state = String;
      }
      break;
    case Line:
      if (c == '\n')
        state = Code;
      else
        out[i] = ' ';
      break;
    case Block:
      if (c == '*' && next == '/') {
        state = Code;
        out[i] = out[i + 1] = ' ';
        ++i;
      } else if (c != '\n') {
        out[i] = ' ';
      }
      break;
    case String:
      if (c == '"' || c == '\n')
        state = Code;
      break;
    }
  }
  return out;
}

/// Blanks every match of group 2 of `pattern` (group 1 is what precedes a
/// directive: the start, a blank, a brace or a semicolon).
void blankAll(std::string &text, StringRef pattern) {
  llvm::Regex regex(pattern);
  size_t from = 0;
  SmallVector<StringRef> m;
  while (from < text.size() &&
         regex.match(StringRef(text).drop_front(from), &m)) {
    size_t at = m[2].data() - text.data();
    for (size_t i = at; i < at + m[2].size(); ++i)
      if (text[i] != '\n')
        text[i] = ' ';
    from = at + std::max<size_t>(m[2].size(), 1);
  }
}

/// The directives that end at the end of their line instead of at a
/// semicolon, blanked: the header (.version, .target, .address_size) and
/// debug lines (.file, .loc). Only their arguments go, so an instruction
/// written after one on the same line stays.
std::string blankLineDirectives(StringRef ptx) {
  std::string text = blankComments(ptx);
  const char *before = "(^|[[:space:];{}])";
  blankAll(text, std::string(before) + "(\\.version[ \t]+[0-9]+\\.[0-9]+)");
  blankAll(text, std::string(before) +
                     "(\\.target[ \t]+[A-Za-z0-9_]+([ \t]*,[ \t]*[A-Za-z0-9_]"
                     "+)*)");
  blankAll(text, std::string(before) + "(\\.address_size[ \t]+[0-9]+)");
  blankAll(text, std::string(before) +
                     "(\\.file[ \t]+[0-9]+[ \t]+\"[^\"\n]*\"([ \t]*,[ \t]*[0-"
                     "9]+[ \t]*,[ \t]*[0-9]+)?)");
  blankAll(text,
           std::string(before) +
               "(\\.loc[ \t]+[0-9]+[ \t]+[0-9]+[ \t]+[0-9]+([ \t]*,[ \t]*"
               "function_name[ \t]+[$A-Za-z0-9_]+([ \t]*,[ \t]*inlined_at[ "
               "\t]+[0-9]+[ \t]+[0-9]+[ \t]+[0-9]+)?)?)");
  return text;
}

/// The names in a parenthesised `.param` list: the last identifier of each
/// comma-separated item.
SmallVector<std::string> paramNames(StringRef list) {
  SmallVector<std::string> names;
  SmallVector<StringRef> items;
  list.split(items, ',');
  llvm::Regex last("([$%A-Za-z_][$A-Za-z0-9_]*)[ ]*(\\[[0-9 ]*\\])?[ ]*$");
  for (StringRef item : items) {
    SmallVector<StringRef> m;
    if (last.match(item.trim(), &m))
      names.push_back(m[1].str());
  }
  return names;
}

/// The text between the parenthesis at `open` and its match.
StringRef parenthesised(StringRef text, size_t open, size_t &close) {
  int depth = 0;
  for (size_t i = open; i < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0) {
      close = i;
      return text.slice(open + 1, i);
    }
  }
  close = text.size();
  return text.drop_front(open + 1);
}

/// Reads a function header (`.visible .entry k(.param .u64 k_param_0)`,
/// `.func (.param .b64 func_retval0) f(...)`) into `fn`; false when the
/// statement declares no function.
bool readFunctionHeader(StringRef header, Function &fn) {
  SmallVector<StringRef> tokens;
  llvm::SplitString(header, tokens);
  size_t at = StringRef::npos;
  for (StringRef token : tokens) {
    StringRef t = token.take_until([](char c) { return c == '('; });
    if (t == ".entry" || t == ".func") {
      fn.entry = t == ".entry";
      at = token.data() - header.data() + t.size();
      break;
    }
  }
  if (at == StringRef::npos)
    return false;
  StringRef rest = header.drop_front(at).ltrim();
  size_t base = header.size() - rest.size();
  if (rest.starts_with("(")) {
    size_t close;
    fn.results = paramNames(parenthesised(header, base, close));
    rest = header.drop_front(close + 1).ltrim();
    base = header.size() - rest.size();
  }
  size_t nameEnd = 0;
  while (nameEnd < rest.size() && (isIdentChar(rest[nameEnd]) ||
                                   (nameEnd == 0 && isIdentStart(rest[0]))))
    ++nameEnd;
  fn.name = rest.take_front(nameEnd).str();
  rest = rest.drop_front(nameEnd).ltrim();
  base = header.size() - rest.size();
  if (rest.starts_with("(")) {
    size_t close;
    fn.params = paramNames(parenthesised(header, base, close));
  }
  return !fn.name.empty();
}

/// Splits a function body (after its `{`) into statements; `i` ends after
/// the body's closing brace.
void readBody(const std::string &text, size_t &i, unsigned &line,
              std::vector<Statement> &body) {
  int depth = 1;
  std::string current;
  unsigned currentLine = 0;
  auto finish = [&] {
    std::string s = collapse(current);
    if (!s.empty())
      body.push_back({s, currentLine});
    current.clear();
    currentLine = 0;
  };
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n')
      ++line;
    if (llvm::isSpace(c)) {
      if (currentLine)
        current += ' ';
      continue;
    }
    // Scope braces stand before a statement; braces inside one are vector
    // operands.
    if ((c == '{' || c == '}') && !currentLine) {
      depth += c == '{' ? 1 : -1;
      if (depth == 0) {
        ++i;
        return;
      }
      continue;
    }
    if (c == '{')
      ++depth;
    if (c == '}') {
      --depth;
      if (depth == 0) {
        finish();
        ++i;
        return;
      }
    }
    if (c == ';') {
      finish();
      continue;
    }
    if (c == ':') {
      // A label ends at its colon.
      StringRef label = StringRef(current).trim();
      if (!label.empty() && isIdentStart(label[0]) &&
          llvm::all_of(label.drop_front(), isIdentChar)) {
        current.clear();
        currentLine = 0;
        continue;
      }
    }
    if (!currentLine)
      currentLine = line;
    current += c;
  }
  finish();
}

PtxModule readPtx(StringRef ptx) {
  std::string text = blankLineDirectives(ptx);
  PtxModule module;
  size_t i = 0;
  unsigned line = 1;
  while (i < text.size()) {
    char c = text[i];
    if (llvm::isSpace(c) || c == '}' || c == ';') {
      if (c == '\n')
        ++line;
      ++i;
      continue;
    }
    // One module-scope statement: up to a semicolon, or a header up to the
    // brace of its body. Braces after `=` are an initializer.
    std::string current;
    unsigned startLine = line;
    int paren = 0, init = 0;
    bool equals = false, body = false;
    for (; i < text.size(); ++i) {
      c = text[i];
      if (c == '\n')
        ++line;
      if (c == '(')
        ++paren;
      else if (c == ')')
        --paren;
      else if (c == '=')
        equals = true;
      else if (c == '{' && equals)
        ++init;
      else if (c == '{' && paren <= 0) {
        body = true;
        break;
      } else if (c == '}' && init > 0)
        --init;
      else if (c == ';' && paren <= 0 && init == 0)
        break;
      current += c;
    }
    ++i;
    Statement statement{collapse(current), startLine};
    if (!body) {
      module.decls.push_back(std::move(statement));
      continue;
    }
    Function fn;
    fn.line = startLine;
    bool isFunction = readFunctionHeader(statement.text, fn);
    readBody(text, i, line, fn.body);
    if (isFunction)
      module.functions.push_back(std::move(fn));
    // Anything else with a body (a debug .section) holds no code.
  }
  return module;
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

enum class SymbolKind { Shared, Module, Local, Function };

struct Declaration {
  /// The state space (.global, .const, .shared, .local) or .func.
  StringRef space;
  bool external = false;
  std::string name;
};

/// A variable or function declaration, or none.
std::optional<Declaration> readDeclaration(StringRef text) {
  SmallVector<StringRef> tokens;
  llvm::SplitString(text, tokens);
  Declaration d;
  size_t k = 0;
  for (; k < tokens.size(); ++k) {
    StringRef t = tokens[k];
    if (t == ".extern")
      d.external = true;
    else if (t != ".visible" && t != ".weak" && t != ".common")
      break;
  }
  if (k == tokens.size())
    return std::nullopt;
  StringRef space = tokens[k].take_until([](char c) { return c == '('; });
  if (space == ".func") {
    Function fn;
    if (!readFunctionHeader(text, fn))
      return std::nullopt;
    d.space = ".func";
    d.name = fn.name;
    return d;
  }
  if (space != ".global" && space != ".const" && space != ".shared" &&
      space != ".local")
    return std::nullopt;
  d.space = space;
  for (++k; k < tokens.size(); ++k) {
    StringRef t = tokens[k];
    if (t.starts_with(".") || t.empty() || llvm::isDigit(t[0]))
      continue;
    size_t n = 0;
    while (n < t.size() && (isIdentChar(t[n]) || (n == 0 && t[0] == '%')))
      ++n;
    d.name = t.take_front(n).str();
    break;
  }
  return d;
}

//===----------------------------------------------------------------------===//
// The rules
//===----------------------------------------------------------------------===//

/// Where a value may come from, as bits: a kind, and for a kernel
/// parameter also which one (bit kFirstParamBit + its index).
using Origins = uint64_t;
enum Origin : Origins {
  FromParam = 1,
  FromShared = 2,
  FromModule = 4,
  FromLocal = 8,
  FromUnknown = 16,
};
constexpr unsigned kFirstParamBit = 8;

Origins fromParameter(size_t index) {
  return FromParam | Origins(1)
                         << (kFirstParamBit +
                             std::min<size_t>(index, 63 - kFirstParamBit));
}

bool isClockRegister(StringRef name) {
  static const llvm::Regex clock(
      "^%(clock|clock_hi|clock64|globaltimer|globaltimer_lo|globaltimer_hi|"
      "pm[0-7]|pm[0-7]_64)$");
  return clock.match(name);
}

/// The identifiers of an operand (registers, symbols, special registers),
/// without type suffixes (`.x` of `%tid.x`) and numbers.
SmallVector<StringRef> identifiers(StringRef text) {
  SmallVector<StringRef> out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '.' || llvm::isDigit(c)) {
      // A suffix or a number (0f3F800000, 0x10, 1.5): skip it whole.
      ++i;
      while (i < text.size() && (isIdentChar(text[i]) || text[i] == '.'))
        ++i;
      continue;
    }
    if (isIdentStart(c)) {
      size_t start = i++;
      while (i < text.size() && isIdentChar(text[i]))
        ++i;
      out.push_back(text.slice(start, i));
      continue;
    }
    ++i;
  }
  return out;
}

/// Splits operands at top-level commas.
SmallVector<StringRef> splitOperands(StringRef text) {
  SmallVector<StringRef> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' || c == '{' || c == '(')
      ++depth;
    else if (c == ']' || c == '}' || c == ')')
      --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  StringRef last = text.drop_front(start).trim();
  if (!last.empty())
    out.push_back(last);
  return out;
}

/// The name in `[name+8]`.
StringRef addressName(StringRef operand) {
  SmallVector<StringRef> ids = identifiers(operand);
  return ids.empty() ? StringRef() : ids.front();
}

class Checker {
public:
  Checker(const PtxModule &module, const PtxGuardOptions &options)
      : module(module), options(options) {}

  std::optional<PtxViolation> run();

private:
  /// A write to memory (a store, an atomic, a bulk copy or reduction).
  struct Write {
    const Function *fn;
    const Statement *statement;
    /// The destination operand, `[...]`.
    StringRef address;
    /// The destination's state space: shared, global, local, param,
    /// const, or generic.
    StringRef space;
    bool atomic;
    /// The identifiers of the values written (stores and reductions).
    SmallVector<StringRef> values;
  };
  struct Edge {
    unsigned to, from;
  };

  void violate(StringRef rule, std::string reason, const Statement &s) {
    if (!first || s.line < first->line)
      first = PtxViolation{rule.str(), std::move(reason), s.line, s.text};
  }
  void checkDeclaration(const Statement &s, bool moduleScope);
  void readFunction(const Function &fn);
  unsigned node(StringRef key) {
    auto [it, inserted] = nodes.try_emplace(key, origins.size());
    if (inserted)
      origins.push_back(0);
    return it->second;
  }
  unsigned reg(const Function &fn, StringRef name) {
    return node(("r:" + fn.name + ":" + name).str());
  }
  unsigned formal(StringRef fn, size_t i) {
    return node(("a:" + fn + ":" + llvm::Twine(i)).str());
  }
  unsigned result(StringRef fn) { return node(("ret:" + fn).str()); }
  /// The origins of a symbol `id` named in `fn`; none for a register.
  std::optional<Origins> symbolOrigin(const Function &fn, StringRef id);
  /// Adds the origins of `id` (a symbol's, or an edge from the register's
  /// node) to node `to`.
  void use(const Function &fn, StringRef id, unsigned to);
  /// The solved origins of `id` in `fn`.
  Origins originOf(const Function &fn, StringRef id);
  void solve();
  std::string describeOrigins(Origins bits) const;
  /// The module variables that identifiers `ids` in `fn` derive from,
  /// comma-separated.
  std::string moduleVariables(const Function &fn, ArrayRef<StringRef> ids);

  const PtxModule &module;
  const PtxGuardOptions &options;
  std::optional<PtxViolation> first;

  llvm::StringMap<SymbolKind> symbols;
  llvm::StringMap<const Function *> functions;
  llvm::StringSet<> addressTaken;
  llvm::StringMap<llvm::StringSet<>> callees;

  llvm::StringMap<unsigned> nodes;
  std::vector<Origins> origins;
  std::vector<Edge> edges;
  std::vector<Write> writes;
  /// The module variables each node takes its value from directly.
  llvm::DenseMap<unsigned, llvm::StringSet<>> moduleUses;
};

void Checker::checkDeclaration(const Statement &s, bool moduleScope) {
  std::optional<Declaration> d = readDeclaration(s.text);
  if (!d)
    return;
  if (d->space == ".func") {
    if (d->external && d->name != "__assertfail")
      violate("device runtime call",
              llvm::formatv("'{0}' is an external device function (the "
                            "device heap, printf or device-side launches)",
                            d->name),
              s);
    return;
  }
  if (d->space == ".global" || d->space == ".const") {
    // Read-only data (tables, constexpr members) is fine; writes to it are
    // checked where they happen. Texture, surface and sampler references
    // are bound by host code, which a candidate does not have.
    if (StringRef(s.text).contains(".texref") ||
        StringRef(s.text).contains(".surfref") ||
        StringRef(s.text).contains(".samplerref"))
      violate(
          "module state",
          llvm::formatv("the reference '{0}' is bound by host code", d->name),
          s);
    return;
  }
  if (d->space == ".local") {
    symbols[d->name] = SymbolKind::Local;
    if (moduleScope)
      violate("module state",
              llvm::formatv("the module-scope .local variable '{0}'", d->name),
              s);
    return;
  }
  symbols[d->name] = SymbolKind::Shared;
  if (moduleScope && !d->external && !options.allowNamedShared &&
      !StringRef(d->name).starts_with("_ZZ"))
    violate("module state",
            llvm::formatv("the module-scope .shared variable '{0}' is "
                          "neither dynamic shared memory nor a "
                          "function-local __shared__ array",
                          d->name),
            s);
}

std::optional<Origins> Checker::symbolOrigin(const Function &fn, StringRef id) {
  auto it = symbols.find(id);
  if (it != symbols.end()) {
    switch (it->second) {
    case SymbolKind::Shared:
      return FromShared;
    case SymbolKind::Module:
      return FromModule;
    case SymbolKind::Local:
      return FromLocal;
    case SymbolKind::Function:
      return FromUnknown;
    }
  }
  if (functions.contains(id)) {
    addressTaken.insert(id);
    return FromUnknown;
  }
  // A parameter's name used as a value is its address, not its value.
  if (llvm::is_contained(fn.params, id))
    return FromUnknown;
  return std::nullopt;
}

void Checker::use(const Function &fn, StringRef id, unsigned to) {
  if (std::optional<Origins> bits = symbolOrigin(fn, id)) {
    origins[to] |= *bits;
    if (*bits & FromModule)
      moduleUses[to].insert(id);
  } else
    edges.push_back({to, reg(fn, id)});
}

Origins Checker::originOf(const Function &fn, StringRef id) {
  if (std::optional<Origins> bits = symbolOrigin(fn, id))
    return *bits;
  auto it = nodes.find(("r:" + fn.name + ":" + id).str());
  return it == nodes.end() ? 0 : origins[it->second];
}

static bool isAtomic(StringRef opcode) {
  return opcode.starts_with("atom.") || opcode.starts_with("red.") ||
         opcode.starts_with("cp.reduce.async.bulk") ||
         opcode.starts_with("multimem.red");
}

/// Stores, atomics, reductions and bulk copies: instructions that write
/// the memory their first address operand names.
static bool writesMemory(StringRef opcode) {
  StringRef base = opcode.take_until([](char c) { return c == '.'; });
  return base == "st" || base == "atom" || base == "red" ||
         (opcode.starts_with("cp.async.bulk.") &&
          !opcode.contains(".prefetch")) ||
         opcode.starts_with("cp.reduce.async.bulk") ||
         opcode.starts_with("multimem.st") ||
         opcode.starts_with("multimem.red");
}

/// The state space of the destination: the first one an opcode names
/// (`cp.async.bulk.global.shared::cta` writes global memory); generic when
/// it names none.
static StringRef destinationSpace(StringRef opcode) {
  SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  for (StringRef p : parts) {
    if (p.starts_with("shared"))
      return "shared";
    if (p == "global" || p == "local" || p == "param" || p == "const")
      return p;
  }
  return "generic";
}

/// Opcodes whose first operand is not a destination.
static bool definesNothing(StringRef base) {
  static const llvm::StringSet<> kinds = {
      "st",         "stmatrix",  "red",     "bar",       "barrier",
      "bra",        "brx",       "ret",     "exit",      "call",
      "membar",     "fence",     "trap",    "prefetch",  "prefetchu",
      "cp",         "multimem",  "pmevent", "nanosleep", "griddepcontrol",
      "setmaxnreg", "tensormap", "sust",    "sured"};
  return kinds.contains(base);
}

/// Opcodes whose destination is loaded from memory (no register origins).
static bool loadsFromMemory(StringRef base) {
  static const llvm::StringSet<> kinds = {
      "ld", "ldu", "ldmatrix", "atom", "tex", "tld4", "suld", "txq", "suq"};
  return kinds.contains(base);
}

void Checker::readFunction(const Function &fn) {
  /// Call arguments stored but not yet passed, by .param name.
  llvm::StringMap<SmallVector<StringRef>> pending;
  /// The callee whose result a `retval` .param holds ("" : unknown).
  llvm::StringMap<std::string> resultOf;
  for (const Statement &s : fn.body) {
    StringRef text = s.text;
    // Every operand of every statement: no clock reads anywhere.
    for (StringRef id : identifiers(text))
      if (isClockRegister(id)) {
        violate("clock read",
                llvm::formatv("reads the special register {0}", id), s);
        break;
      }
    if (text.starts_with(".")) {
      checkDeclaration(s, /*moduleScope=*/false);
      continue;
    }
    if (text.starts_with("@"))
      text = text.drop_until([](char c) { return c == ' '; }).ltrim();
    StringRef opcode = text.take_until([](char c) { return c == ' '; });
    StringRef rest = text.drop_front(opcode.size()).trim();
    StringRef base = opcode.take_until([](char c) { return c == '.'; });
    SmallVector<StringRef> operands = splitOperands(rest);

    if (base == "call") {
      size_t k = 0;
      SmallVector<StringRef> rets, args;
      if (k < operands.size() && operands[k].starts_with("("))
        rets = identifiers(operands[k++]);
      StringRef callee = k < operands.size() ? operands[k++] : StringRef();
      if (k < operands.size() && operands[k].starts_with("("))
        args = identifiers(operands[k]);
      bool direct = functions.contains(callee);
      for (StringRef r : rets)
        resultOf[r] = direct ? callee.str() : "";
      if (direct) {
        callees[fn.name].insert(callee);
        for (auto [i, a] : llvm::enumerate(args))
          for (StringRef v : pending.lookup(a))
            use(fn, v, formal(callee, i));
      }
      pending.clear();
      continue;
    }
    if (base == "st" && opcode.contains(".param") && operands.size() >= 2) {
      StringRef name = addressName(operands[0]);
      SmallVector<StringRef> values = identifiers(operands[1]);
      if (llvm::is_contained(fn.results, name)) {
        for (StringRef v : values)
          use(fn, v, result(fn.name));
      } else {
        auto &list = pending[name];
        list.append(values.begin(), values.end());
      }
      continue;
    }
    if (base == "ld" && opcode.contains(".param") && operands.size() >= 2) {
      StringRef name = addressName(operands[1]);
      SmallVector<unsigned> defs;
      for (StringRef d : identifiers(operands[0]))
        defs.push_back(reg(fn, d));
      auto formalAt = llvm::find(fn.params, name);
      for (unsigned d : defs) {
        if (formalAt != fn.params.end()) {
          if (fn.entry)
            origins[d] |= fromParameter(formalAt - fn.params.begin());
          else
            edges.push_back({d, formal(fn.name, formalAt - fn.params.begin())});
        } else if (auto r = resultOf.find(name);
                   r != resultOf.end() && !r->second.empty()) {
          edges.push_back({d, result(r->second)});
        } else {
          origins[d] |= FromUnknown;
        }
      }
      continue;
    }
    if (writesMemory(opcode)) {
      StringRef address;
      for (StringRef o : operands)
        if (o.starts_with("[")) {
          address = o;
          break;
        }
      Write w{&fn, &s, address, destinationSpace(opcode), isAtomic(opcode), {}};
      if (base == "st" || base == "atom" || base == "red" ||
          base == "multimem") {
        bool after = false;
        for (StringRef o : operands) {
          if (after)
            for (StringRef id : identifiers(o))
              w.values.push_back(id);
          after |= o.data() == address.data();
        }
      }
      writes.push_back(std::move(w));
    }
    // An address as the first operand (mbarrier.init [bar], n) names
    // memory, not a destination register.
    if (operands.empty() || definesNothing(base) ||
        operands[0].starts_with("["))
      continue;
    SmallVector<unsigned> defs;
    for (StringRef d : identifiers(operands[0]))
      defs.push_back(reg(fn, d));
    if (loadsFromMemory(base))
      continue;
    for (StringRef o : llvm::drop_begin(operands))
      for (StringRef id : identifiers(o))
        for (unsigned d : defs)
          use(fn, id, d);
  }
}

void Checker::solve() {
  bool changed = true;
  while (changed) {
    changed = false;
    for (const Edge &e : edges) {
      Origins merged = origins[e.to] | origins[e.from];
      if (merged != origins[e.to]) {
        origins[e.to] = merged;
        changed = true;
      }
    }
  }
}

std::string Checker::moduleVariables(const Function &fn,
                                     ArrayRef<StringRef> ids) {
  llvm::StringSet<> names;
  llvm::DenseSet<unsigned> seen;
  SmallVector<unsigned> work;
  for (StringRef id : ids) {
    auto it = symbols.find(id);
    if (it != symbols.end() && it->second == SymbolKind::Module)
      names.insert(id);
    auto n = nodes.find(("r:" + fn.name + ":" + id).str());
    if (n != nodes.end())
      work.push_back(n->second);
  }
  while (!work.empty()) {
    unsigned n = work.pop_back_val();
    if (!seen.insert(n).second)
      continue;
    auto direct = moduleUses.find(n);
    if (direct != moduleUses.end())
      for (const auto &name : direct->second.keys())
        names.insert(name);
    for (const Edge &e : edges)
      if (e.to == n)
        work.push_back(e.from);
  }
  SmallVector<StringRef> sorted(names.keys().begin(), names.keys().end());
  llvm::sort(sorted);
  return llvm::join(sorted, "', '");
}

std::string Checker::describeOrigins(Origins bits) const {
  if (bits & FromModule)
    return "it is derived from a module-scope variable";
  if (bits & FromLocal)
    return "it is derived from the thread's local stack";
  if (bits & FromUnknown)
    return "it is derived from a pointer of unknown origin (a function "
           "pointer, an indirect call's result or a parameter's address)";
  return "it is not derived from any kernel parameter (a constant or a "
         "pointer loaded from memory)";
}

std::optional<PtxViolation> Checker::run() {
  for (const Function &fn : module.functions)
    functions[fn.name] = &fn;
  for (const Statement &s : module.decls) {
    checkDeclaration(s, /*moduleScope=*/true);
    std::optional<Declaration> d = readDeclaration(s.text);
    if (d && (d->space == ".global" || d->space == ".const"))
      symbols[d->name] = SymbolKind::Module;
    if (d && d->space == ".func")
      symbols[d->name] = SymbolKind::Function;
  }
  // Variables declared in bodies (demoted shared arrays, the local depot)
  // are symbols before any use.
  for (const Function &fn : module.functions)
    for (const Statement &s : fn.body)
      if (s.text.front() == '.')
        if (std::optional<Declaration> d = readDeclaration(s.text)) {
          if (d->space == ".shared")
            symbols[d->name] = SymbolKind::Shared;
          else if (d->space == ".local")
            symbols[d->name] = SymbolKind::Local;
          else if (d->space == ".global" || d->space == ".const")
            symbols[d->name] = SymbolKind::Module;
        }
  for (const Function &fn : module.functions)
    readFunction(fn);
  // A function whose address is taken may be called with anything.
  for (const auto &name : addressTaken.keys())
    if (const Function *fn = functions.lookup(name))
      for (size_t i = 0; i < fn->params.size(); ++i)
        origins[formal(name, i)] |= FromUnknown;
  solve();

  // Atomics count where the kernels can reach them.
  llvm::StringSet<> reachable;
  SmallVector<StringRef> work;
  for (const Function &fn : module.functions)
    if (fn.entry || addressTaken.contains(fn.name))
      work.push_back(fn.name);
  while (!work.empty()) {
    StringRef name = work.pop_back_val();
    if (!reachable.insert(name).second)
      continue;
    auto it = callees.find(name);
    if (it != callees.end())
      for (const auto &callee : it->second.keys())
        work.push_back(callee);
  }
  for (const Write &w : writes) {
    if (!reachable.contains(w.fn->name))
      continue;
    Origins stored = 0;
    for (StringRef id : w.values)
      stored |= originOf(*w.fn, id);
    if (stored & FromModule)
      violate("module state",
              llvm::formatv("stores the address of the module-scope "
                            "variable '{0}' to memory, where no check "
                            "follows it",
                            moduleVariables(*w.fn, w.values)),
              *w.statement);
    if (w.space != "global" && w.space != "generic")
      continue;
    SmallVector<StringRef> addressIds = identifiers(w.address);
    Origins bits = 0;
    for (StringRef id : addressIds)
      bits |= originOf(*w.fn, id);
    if (bits & FromModule)
      violate("module state",
              llvm::formatv("writes the module-scope variable '{0}', state "
                            "that outlives the launch",
                            moduleVariables(*w.fn, addressIds)),
              *w.statement);
    if (w.atomic) {
      bool good = bits & (FromParam | FromShared);
      bool bad = bits & (FromModule | FromLocal | FromUnknown);
      if (!good || bad)
        violate("atomic on non-argument memory",
                llvm::formatv("the address {0} is not in a kernel argument: "
                              "{1}",
                              w.address, describeOrigins(bits)),
                *w.statement);
    }
    for (unsigned i = 0; i < options.numInputs; ++i)
      if (bits & fromParameter(i) & ~Origins(FromParam)) {
        violate("write to an input",
                llvm::formatv("the address {0} is derived from parameter {1}, "
                              "an input of the problem (inputs are read-only, "
                              "whatever their C++ type says)",
                              w.address, i),
                *w.statement);
        break;
      }
  }
  return first;
}

} // namespace

std::optional<PtxViolation>
mlir::stark::findPtxViolation(StringRef ptx, const PtxGuardOptions &options) {
  PtxModule module = readPtx(ptx);
  return Checker(module, options).run();
}
