// The declared facts (compile::FactKind::Tally) in generated code, step for step as the
// interpreter keeps them (runtime/tallies.cpp): t<F>() finds the entry an element adds to and what
// it adds; after a write to a cell of an element's row, the element's part moves from the entry of
// the cell's old value to the entry of its new one, and the counts kept over the entries follow.
#include <fmt/format.h>

#include "native/emitter.hpp"

namespace keli::native {

namespace {
const char* const kTallySig =
    "keli_ctx* c, int32_t* __restrict s, int64_t* __restrict L, int64_t x, int64_t& slot, int64_t& weight";
}

void Emitter::tally_declarations() {
  for (size_t i = 0; i < p_.facts.size(); ++i)
    if (p_.facts[i].kind == compile::FactKind::Tally) line(fmt::format("void tally{}({});", i, kTallySig));
}

// Each condition's callable takes the element as its one argument (expression callables pass
// their parameters as arguments).
void Emitter::tally_functions() {
  for (size_t i = 0; i < p_.facts.size(); ++i) {
    const compile::Fact& f = p_.facts[i];
    if (f.kind != compile::FactKind::Tally) continue;
    open(fmt::format("void tally{}({}) {{", i, kTallySig));
    line("slot = -1;");
    line("weight = 0;");
    line("int64_t k[4] = {0, 0, 0, 0};");
    line("(void)k;");
    for (const compile::TallyStep& st : f.steps) {
      open("{");
      line(fmt::format("const int64_t v = f{}(c, s, L, x);", st.callable));
      if (st.key < 0)
        line("if (v == 0) return;");
      else
        line(fmt::format("if (v < 0 || v >= {}) return;\nk[{}] = v;", f.key_sizes[st.key], st.key));
      close();
    }
    std::string at = "0";
    for (size_t k = 0; k < f.key_sizes.size(); ++k) at = fmt::format("({}) * {} + k[{}]", at, f.key_sizes[k], k);
    line(fmt::format("slot = {};", at));
    line(f.weight < 0 ? "weight = 1;" : fmt::format("weight = f{}(c, s, L, x);", f.weight));
    close();
  }
}

// After `s[off] = now` (the cell was `before`), at assignment node idx.
void Emitter::update_tallies(int var, const std::string& off, const std::string& before, const std::string& now,
                             int idx) {
  const compile::VarInfo& t = p_.vars[var];
  for (int id : p_.tallies_of_var[var]) {
    const compile::Fact& f = p_.facts[id];
    open("{");
    line(fmt::format("const int64_t x = ({} - {}) / {};", off, t.base, t.size() / t.dims[0]));
    line("int64_t was, was_w, is, is_w;");
    line(fmt::format("s[{}] = static_cast<int32_t>({});", off, before));
    line(fmt::format("tally{}(c, s, L, x, was, was_w);", id));
    line(fmt::format("s[{}] = static_cast<int32_t>({});", off, now));
    line(fmt::format("tally{}(c, s, L, x, is, is_w);", id));
    for (const auto& [part, sign] : {std::pair{"was", '-'}, std::pair{"is", '+'}}) {
      open(fmt::format("if ({} >= 0) {{", part));
      line(fmt::format("const int64_t before = s[{} + {}];", f.base, part));
      line(fmt::format("const int32_t now = store(c, {}, before {} {}_w);", idx, sign, part));
      note_write(fmt::format("{} + {}", f.base, part));
      line(fmt::format("s[{} + {}] = now;", f.base, part));
      update_cells(p_.facts_of_tally[id], f.entries, fmt::format("({} + {})", f.base, part), "before", "now");
      close();
    }
    close();
  }
}

// The read of a declared fact: its arguments left to right, 0 when one is out of range.
std::string Emitter::tally(const compile::Node& n) {
  const compile::Fact& f = p_.facts[n.a];
  std::string at = tmp(), inside = tmp(), out = tmp();
  line(fmt::format("int64_t {} = 0;", at));
  line(fmt::format("bool {} = true;", inside));
  for (size_t i = 0; i < f.key_sizes.size(); ++i) {
    std::string v = expr(n.k[i]);
    line(fmt::format("{0} = {0} && {1} >= 0 && {1} < {2};", inside, v, f.key_sizes[i]));
    line(fmt::format("{0} = {0} * {1} + ({2} ? {3} : 0);", at, f.key_sizes[i], inside, v));
  }
  line(fmt::format("const int64_t {} = {} ? s[{} + {}] : 0;", out, inside, f.base, at));
  return out;
}

}  // namespace keli::native
