// The emitter's translation unit: the embedded ABI and arithmetic headers, the helpers every
// game uses, the program's tables as static arrays, one function per callable and body, move
// generation as nested loops in rule and parameter order, and the C entry points.
#include "native/emit.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "native/embedded.hpp"
#include "lang/limits.hpp"
#include "native/emitter.hpp"

namespace keli::native {
using compile::Node;

void Emitter::line(const std::string& s) {
  out_.append(static_cast<size_t>(indent_) * 2, ' ');
  out_ += s;
  out_ += '\n';
}
void Emitter::open(const std::string& s) {
  line(s);
  ++indent_;
}
void Emitter::close(const std::string& s) {
  --indent_;
  line(s);
}
std::string Emitter::tmp() { return "t" + std::to_string(tmp_++); }

namespace {
// The helpers: faults leave through a C++ exception caught at the entry points (never across the
// C interface); arithmetic is keli::lang::apply with its fault reported at the node.
constexpr const char* kHelpers = R"(
namespace {
using keli::lang::Operator;
struct Fault {};
[[noreturn, gnu::cold, gnu::noinline]] void fault(keli_ctx* c, int node, int kind, int64_t a, int64_t b, int64_t x) {
  c->fault.node = node; c->fault.kind = kind; c->fault.a = a; c->fault.b = b; c->fault.c = x;
  throw Fault{};
}
template <Operator op> inline int64_t ar(keli_ctx* c, int node, int64_t a, int64_t b) {
  const keli::lang::Result r = keli::lang::apply<op>(a, b);
  if (__builtin_expect(!r.ok(), 0)) fault(c, node, KELI_FAULT_ARITH, static_cast<int64_t>(r.fault), 0, 0);
  return r.value;
}
template <Operator op> inline int64_t ar1(keli_ctx* c, int node, int64_t a) {
  const keli::lang::Result r = keli::lang::apply<op>(a);
  if (__builtin_expect(!r.ok(), 0)) fault(c, node, KELI_FAULT_ARITH, static_cast<int64_t>(r.fault), 0, 0);
  return r.value;
}
inline int64_t absolute(keli_ctx* c, int node, int64_t a) {
  const keli::lang::Result r = keli::lang::absolute(a);
  if (__builtin_expect(!r.ok(), 0)) fault(c, node, KELI_FAULT_ARITH, static_cast<int64_t>(r.fault), 0, 0);
  return r.value;
}
// A local collection's operation (lang/collections.hpp) that found something wrong: its fault, the
// value or position it was given and how many values the collection holds (runtime/messages.hpp).
inline void coll_check(keli_ctx* c, int node, keli::lang::CollFault f, int64_t value, const int64_t* coll,
                       keli::lang::CollKind k) {
  if (__builtin_expect(f != keli::lang::CollFault::None, 0))
    fault(c, node, KELI_FAULT_COLLECTION, static_cast<int64_t>(f), value, keli::lang::coll_size(coll, k));
}
// Units of the step's work budget, spent at node: a call or a `while` round is one, a domain
// its size when it opens (as runtime/machine.hpp's spend).
inline void spend(keli_ctx* c, int node, int64_t units = 1) {
  if (__builtin_expect((c->work_left -= units) < 0, 0)) fault(c, node, KELI_FAULT_BUDGET, 0, 0, 0);
}
inline int32_t store(keli_ctx* c, int node, int64_t v) {
  if (__builtin_expect(!keli::lang::fits_state(v), 0)) fault(c, node, KELI_FAULT_TOO_LARGE, 0, v, 0);
  return static_cast<int32_t>(v);
}
inline int64_t index_of(const int32_t* list, int n, int64_t site) {
  for (int i = 0; i < n; ++i)
    if (list[i] == site) return i;
  return -1;
}
// The site after site on a list, wrapping round, or -1 when the site is not on it.
inline int64_t next_of(const int32_t* list, int n, int64_t site) {
  const int64_t i = index_of(list, n, site);
  return i < 0 ? -1 : list[(i + 1) % n];
}
// As runtime/machine_domains.cpp's leading_below: how many first elements of an ascending
// domain (a list, or the numbers lo, lo + 1, ...) are below the bound (or equal, inclusive).
inline int below_list(const int32_t* list, int n, int64_t bound, bool inclusive) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (inclusive ? list[mid] <= bound : list[mid] < bound) lo = mid + 1; else hi = mid;
  }
  return lo;
}
inline int below_range(int64_t first, int n, int64_t bound, bool inclusive) {
  if (bound < first || (!inclusive && bound == first)) return 0;
  const uint64_t k = static_cast<uint64_t>(bound) - static_cast<uint64_t>(first) + (inclusive ? 1u : 0u);
  return k < static_cast<uint64_t>(n) ? static_cast<int>(k) : n;
}
inline void note(keli_ctx* c, int32_t id) {
  if (c->notes.size == c->notes.cap) c->grow(c, &c->notes);
  static_cast<int32_t*>(c->notes.data)[c->notes.size++] = id;
}
inline void push_move(keli_ctx* c, const keli_move& m) {
  if (c->moves.size == c->moves.cap) c->grow(c, &c->moves);
  static_cast<keli_move*>(c->moves.data)[c->moves.size++] = m;
}
)";

// Headers meant for inclusion, made fit to paste into one file: no #pragma once, no includes of
// Keli headers (pasted before).
std::string paste(const char* text) {
  std::string out, line;
  for (const char* p = text; *p; ++p) {
    line += *p;
    if (*p != '\n') continue;
    if (line.rfind("#pragma once", 0) != 0 && line.rfind("#include \"", 0) != 0) out += line;
    line.clear();
  }
  return out + line;
}

template <class T>
std::string array(const char* type, const std::string& name, const std::vector<T>& v) {
  std::string out = fmt::format("const {} {}[] = {{", type, name);
  for (size_t i = 0; i < v.size(); ++i) out += (i % 16 == 0 ? "\n  " : " ") + std::to_string(v[i]) + ",";
  if (v.empty()) out += "0";
  return out + "};\n";
}
}  // namespace

void Emitter::tables() {
  std::vector<int64_t> consts = p_.consts;
  out_ += array("int64_t", "K", consts);
  history_layout();
  std::vector<int32_t> rs, ro, rn;
  std::vector<int16_t> rx;
  std::vector<int32_t> nx;
  for (size_t r = 0; r < p_.regions.size(); ++r) {
    ro.push_back(static_cast<int32_t>(rs.size()));
    rn.push_back(static_cast<int32_t>(p_.regions[r].size()));
    rs.insert(rs.end(), p_.regions[r].begin(), p_.regions[r].end());
    if (r >= p_.region_index.size()) continue;  // the geometry's: scanned (Program::region_position)
    const auto& list = p_.regions[r];
    for (int site = 0; site < p_.num_sites; ++site) {
      const int16_t pos = p_.region_index[r][site];
      rx.push_back(pos);
      nx.push_back(pos < 0 ? -1 : list[(static_cast<size_t>(pos) + 1) % list.size()]);
    }
  }
  out_ += array("int32_t", "RS", rs) + array("int32_t", "RO", ro) + array("int32_t", "RN", rn) +
          array("int16_t", "RX", rx) + array("int32_t", "NX", nx);
  for (size_t d = 0; d < p_.domain_indexes.size(); ++d) {
    const compile::DomainIndex& ix = p_.domain_indexes[d];
    std::vector<int32_t> e, o;
    for (const auto& list : ix.lists) {
      o.push_back(static_cast<int32_t>(e.size()));
      e.insert(e.end(), list.begin(), list.end());
    }
    o.push_back(static_cast<int32_t>(e.size()));
    e.insert(e.end(), ix.none.begin(), ix.none.end());
    o.push_back(static_cast<int32_t>(e.size()));
    out_ += array("int32_t", fmt::format("DI{}_E", d), e) + array("int32_t", fmt::format("DI{}_O", d), o);
  }
}

// Frames: callable c owns the slots from its frame to the next frame above it.
std::pair<int, int> Emitter::frame(int callable) const {
  const int lo = p_.callables[callable].frame;
  int hi = std::max(1, p_.locals);
  for (const compile::Callable& other : p_.callables)
    if (other.frame > lo) hi = std::min(hi, other.frame);
  for (int storage : p_.collection_storage)
    if (storage >= lo) hi = std::min(hi, storage);
  return {lo, hi};
}
std::pair<int, int> Emitter::frame_of_slot(int s) const {
  for (size_t c = 0; c < p_.callables.size(); ++c) {
    auto f = frame(static_cast<int>(c));
    if (s >= f.first && s < f.second && f.second > f.first) return f;
  }
  return {0, 0};
}
// Handlers' parameters are set where the event is raised and read by their guards there: their
// frames stay in L. Every other callable takes its parameters as arguments.
bool Emitter::passes_args(int callable) const {
  for (const auto& hs : p_.handlers)
    for (const compile::Handler& h : hs)
      if (h.callable == callable) return false;
  return true;
}
// The frames a step can open are counted only where they might pass the check: a program whose
// deepest nesting is known to stay within it (compile/frames.cpp) never fails it.
bool Emitter::counts_depth() const { return p_.max_frames < 0 || p_.max_frames > lang::kMaxCallDepth; }
std::string Emitter::slot(int s) const {
  if (s >= frame_.first && s < frame_.second) return "l" + std::to_string(s);
  return fmt::format("L[{}]", s);
}
void Emitter::declare_frame(std::pair<int, int> f) {
  frame_ = f;
  if (f.second <= f.first) return;
  std::string decl = "int64_t";
  for (int k = f.first; k < f.second; ++k) decl += fmt::format("{} l{} = 0", k == f.first ? "" : ",", k);
  line(decl + ";");
}
std::string Emitter::call_args(int callable, const std::vector<std::string>& args) const {
  if (!passes_args(callable)) return "";
  std::string out;
  for (size_t i = 0; i < p_.callables[callable].params.size(); ++i)
    out += ", " + (i < args.size() ? args[i] : "int64_t(0)");
  return out;
}

namespace {
const char* const kSig = "keli_ctx* c, int32_t* __restrict s, int64_t* __restrict L";
std::string params_sig(size_t n) {
  std::string out = kSig;
  for (size_t i = 0; i < n; ++i) out += fmt::format(", int64_t a{}", i);
  return out;
}
// A name as a comment of one line, for whoever reads the kept source.
std::string one_line(std::string name) {
  std::replace_if(
      name.begin(), name.end(), [](char ch) { return ch == '\n' || ch == '\r'; }, ' ');
  return name;
}
std::string params_pass(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += fmt::format(", a{}", i);
  return out;
}
}  // namespace

void Emitter::callables() {
  for (size_t i = 0; i < p_.callables.size(); ++i) {
    size_t np = passes_args(static_cast<int>(i)) ? p_.callables[i].params.size() : 0;
    line(fmt::format("int64_t b{}({});\nint64_t f{}({});", i, params_sig(np), i, params_sig(np)));
  }
  for (size_t i = 0; i < p_.rules.size(); ++i)
    line(fmt::format("void r{}({});\nvoid g{}({});", i, params_sig(p_.rules[i].params.size()), i, kSig));
  tally_declarations();
  for (size_t i = 0; i < p_.callables.size(); ++i) {
    const compile::Callable& cl = p_.callables[i];
    const bool args = passes_args(static_cast<int>(i));
    const size_t np = args ? cl.params.size() : 0;
    line("// " + one_line(cl.name));
    open(fmt::format("int64_t b{}({}) {{", i, params_sig(np)));
    line("(void)c; (void)s; (void)L;");
    if (args) {
      declare_frame(frame(static_cast<int>(i)));
      for (size_t k = 0; k < np; ++k) line(fmt::format("{} = a{};", slot(cl.params[k]), k));
    }
    if (cl.body >= 0 && cl.is_expr) {
      line(fmt::format("return {};", expr(cl.body)));
    } else {
      if (cl.body >= 0) stmts(cl.body);
      line("return 0;");
    }
    frame_ = {0, 0};
    close();
    open(fmt::format("int64_t f{}({}) {{", i, params_sig(np)));
    if (!counts_depth()) {
      line(fmt::format("return b{}(c, s, L{});", i, params_pass(np)));
      close();
      continue;
    }
    line(fmt::format("if (++c->depth > {}) {};", lang::kMaxCallDepth, fault(cl.body, "KELI_FAULT_CALL_DEPTH")));
    line(fmt::format("const int64_t v = b{}(c, s, L{});", i, params_pass(np)));
    line("--c->depth;");
    line("return v;");
    close();
  }
  tally_functions();
}

void Emitter::bodies() {
  for (size_t i = 0; i < p_.rules.size(); ++i) {
    const compile::Rule& rule = p_.rules[i];
    line("// the body of " + one_line(rule.name));
    open(fmt::format("void r{}({}) {{", i, params_sig(rule.params.size())));
    line("(void)c; (void)s; (void)L;");
    if (!rule.params.empty()) {
      declare_frame(frame_of_slot(rule.params[0].slot));
      for (size_t k = 0; k < rule.params.size(); ++k) line(fmt::format("{} = a{};", slot(rule.params[k].slot), k));
    }
    void_body_ = true;
    stmts(rule.body);
    void_body_ = false;
    frame_ = {0, 0};
    close();
  }
  for (size_t i = 0; i < p_.phases.size(); ++i) {
    if (p_.phases[i].chance_body < 0) continue;
    open(fmt::format("void ph{}({}) {{", i, kSig));
    void_body_ = true;
    stmts(p_.phases[i].chance_body);
    void_body_ = false;
    close();
  }
}

// Move generation: the interpreter's odometer written as nested loops; an inner domain is opened
// after the outer parameter passed its filter.
void Emitter::legal() {
  // When a guard, filter or domain may write the state, each starts from the position itself:
  // the writes before it are undone (note() logs them), as the interpreter does.
  auto restore = [&] {
    if (p_.guards_write_state) line("rewind(c, s);");
  };
  for (size_t r = 0; r < p_.rules.size(); ++r) {
    const compile::Rule& rule = p_.rules[r];
    line("// the moves of " + one_line(rule.name));
    open(fmt::format("void g{}({}) {{", r, kSig));
    line("(void)s; (void)L;");
    if (!rule.params.empty()) declare_frame(frame_of_slot(rule.params[0].slot));
    line(fmt::format("keli_move mv{{{}, {}, {{0, 0, 0, 0}}}};", r, rule.params.size()));
    if (!rule.params.empty()) line("int64_t tries = 0;");  // as the interpreter's odometer counts
    std::vector<std::string> counters;                     // each parameter's position in its domain
    for (size_t k = 0; k < rule.params.size(); ++k) counters.push_back(tmp());
    plan_memo(rule, counters);
    int depth = 0;
    for (size_t k = 0; k < rule.params.size(); ++k) {
      const compile::RuleParam& prm = rule.params[k];
      const std::string& i = counters[k];
      open("{");
      restore();
      Dom d = domain(prm.domain);
      // The whole domain is charged as it opens, as the interpreter's odometer charges it.
      line(fmt::format("if ((tries += {}) > {}) {};", d.size, lang::kMaxMoveTries,
                       fault(rule.params[0].domain, "KELI_FAULT_MOVE_TRIES", std::to_string(r))));
      line(fmt::format("spend(c, {}, {});", prm.domain, d.size));
      const std::string seen = i + "_seen", kept = i + "_kept";
      if (prm.distinct >= 0) line(fmt::format("int64_t {}[{}]; int {} = 0;", seen, lang::kMaxDistinctKeys, kept));
      open(fmt::format("for (int {} = 0; {} < {}; ++{}) {{", i, i, d.size, i));
      line(fmt::format("{} = {};", slot(prm.slot), element(d, i)));
      line(fmt::format("mv.args[{}] = static_cast<int32_t>({});", k, slot(prm.slot)));
      if (prm.filter >= 0) {
        restore();
        line(fmt::format("if (!{}) continue;", expr(prm.filter)));
      }
      if (prm.distinct >= 0) distinct(prm, r, seen, kept, restore);
      depth += 2;
    }
    open("{");
    if (rule.guard >= 0) restore();
    if (rule.guard >= 0)
      line(fmt::format("if ({}) push_move(c, mv);", expr(rule.guard)));
    else
      line("push_move(c, mv);");
    close();
    for (int k = 0; k < depth; ++k) close();
    memo_sites_.clear();
    frame_ = {0, 0};
    close();
  }
}

// `distinct by KEY`: a value whose key an earlier value of the loop kept is skipped, as the
// interpreter's Game::first_of_key does; the keys kept are at most kMaxDistinctKeys.
void Emitter::distinct(const compile::RuleParam& prm, size_t rule, const std::string& seen, const std::string& kept,
                       const std::function<void()>& restore) {
  open("{");
  restore();
  line(fmt::format("const int64_t key = {};", expr(prm.distinct)));
  line("bool listed = false;");
  line(fmt::format("for (int j = 0; j < {} && !listed; ++j) listed = {}[j] == key;", kept, seen));
  line("if (listed) continue;");
  line(fmt::format("if ({} == {}) {};", kept, lang::kMaxDistinctKeys,
                   fault(prm.distinct, "KELI_FAULT_DISTINCT", std::to_string(rule))));
  line(fmt::format("{}[{}++] = key;", seen, kept));
  close();
}

void Emitter::entries() {
  open("int e_call(keli_ctx* c, int32_t* s, int32_t callable, const int64_t* args, int32_t nargs, int64_t* out) {");
  line("int64_t* L = c->locals;");
  line("c->depth = 0;");
  open("try {");
  open("switch (callable) {");
  for (size_t i = 0; i < p_.callables.size(); ++i) {
    const compile::Callable& cl = p_.callables[i];
    std::vector<std::string> args;
    for (size_t k = 0; k < cl.params.size(); ++k) args.push_back(fmt::format("(nargs > {} ? args[{}] : 0)", k, k));
    std::string sets;
    if (!passes_args(static_cast<int>(i)))
      for (size_t k = 0; k < cl.params.size(); ++k)
        sets += fmt::format(" if (nargs > {}) L[{}] = args[{}];", k, cl.params[k], k);
    line(fmt::format("case {}:{} *out = f{}(c, s, L{}); break;", i, sets, i, call_args(static_cast<int>(i), args)));
  }
  line("default: *out = 0; break;");
  close("}");
  close("} catch (const Fault&) { return 1; }");
  line("return 0;");
  close();
  open("int e_legal(keli_ctx* c, int32_t* s) {");
  line("int64_t* L = c->locals;");
  line("c->depth = 0;");
  // Guards that write the state leave it as it was, after a fault too (rewind).
  const bool writes = p_.guards_write_state;
  if (writes) line("c->undo.size = 0; c->logging = 1;");
  open("try {");
  open("switch (s[1]) {");
  for (size_t ph = 0; ph < p_.phases.size(); ++ph) {
    if (p_.phases[ph].rules.empty()) continue;
    std::string calls;
    for (int r : p_.phases[ph].rules) calls += fmt::format(" g{}(c, s, L);", r);
    line(fmt::format("case {}:{} break;", ph, calls));
  }
  close("}");
  if (writes) line("rewind(c, s); c->logging = 0;");
  if (writes) {  // the host's grow may throw too (no memory): the position still comes back
    close("} catch (const Fault&) { rewind(c, s); c->logging = 0; return 1; }");
    line("catch (...) { rewind(c, s); c->logging = 0; throw; }");
  } else {
    close("} catch (const Fault&) { return 1; }");
  }
  line("return 0;");
  close();
  open("int e_apply(keli_ctx* c, int32_t* s, const keli_move* m) {");
  line("int64_t* L = c->locals;");
  line("c->depth = 0;");
  open("try {");
  open("switch (m->rule) {");
  for (size_t r = 0; r < p_.rules.size(); ++r) {
    std::string args;
    for (size_t k = 0; k < p_.rules[r].params.size(); ++k)
      args += fmt::format(", int64_t(m->nargs > {} ? m->args[{}] : 0)", k, k);
    line(fmt::format("case {}: r{}(c, s, L{}); break;", r, r, args));
  }
  close("}");
  close("} catch (const Fault&) { return 1; }");
  line("return 0;");
  close();
  open("int e_apply_roll(keli_ctx* c, int32_t* s) {");
  line("int64_t* L = c->locals;");
  line("c->depth = 0;");
  open("try {");
  open("switch (s[1]) {");
  for (size_t ph = 0; ph < p_.phases.size(); ++ph)
    if (p_.phases[ph].chance_body >= 0) line(fmt::format("case {}: ph{}(c, s, L); break;", ph, ph));
  close("}");
  close("} catch (const Fault&) { return 1; }");
  line("return 0;");
  close();
}

std::string Emitter::source() {
  out_ = "// Generated by Keli's native emitter (interpreter/native/). Do not edit.\n";
  out_ += fmt::format("// {} nodes, {} callables, {} rules\n", p_.code.size(), p_.callables.size(), p_.rules.size());
  out_ += "#include <cstdint>\n#include <optional>\n#include <string_view>\n";
  out_ += paste(kEmbeddedAbi) + paste(kEmbeddedOperators) + paste(kEmbeddedArith) + paste(kEmbeddedHistory) +
          paste(kEmbeddedPlaces) + paste(kEmbeddedCollections);
  out_ += fmt::format("#define KELI_PLACES {}\n#define KELI_OVER {}\n#define KELI_ENDED {}\n",
                      static_cast<int>(compile::kPlaces), static_cast<int>(compile::kOver),
                      static_cast<int>(compile::kEnded));
  out_ += kHelpers;
  out_ += kUndoHelpers;
  tables();
  callables();
  bodies();
  legal();
  entries();
  out_ += "}  // namespace\n";
  return std::move(out_);
}

std::string emit(const compile::Program& p) { return Emitter(p).source(); }

std::string module_table(const compile::Program& p, const std::string& hash) {
  return fmt::format(
      "extern \"C\" __attribute__((visibility(\"default\"))) const keli_module* keli_native_module(void) {{\n"
      "  static const keli_module m = {{KELI_NATIVE_ABI_VERSION, \"{}\", {}, e_call, e_legal, e_apply, "
      "e_apply_roll}};\n"
      "  return &m;\n}}\n",
      hash, std::max(1, p.locals));
}

}  // namespace keli::native
