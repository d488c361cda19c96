// The declared facts (`fact NAME(KEYS): int = count/sum(x in D where ...)`, check/facts.cpp) as
// Tally facts: each condition and key a callable of the element x, compiled from the fact's own
// expressions in a frame of the fact's size (so x and the aggregate's inner locals keep their
// slots), and hidden slots after the variables, one per combination of the keys.
#include <fmt/format.h>

#include "compile/compiler_impl.hpp"
#include "lang/limits.hpp"

namespace keli::compile {

namespace {

int count_of_kind(const Program& out, lang::DimKind k) {
  return k == lang::DimKind::Site ? out.num_sites : k == lang::DimKind::Player ? out.num_players : out.num_pieces;
}

lang::DimKind kind_of_type(const std::string& t) {
  return t == "site" ? lang::DimKind::Site : t == "player" ? lang::DimKind::Player : lang::DimKind::Piece;
}

}  // namespace

// Unoptimized, a fact is only its definition, called (the lockstep tests' other side).
void Compiler::compile_facts(CodeGen& gen, Program& out) {
  for (const check::FactShape& shape : ck.facts) {
    const ast::Decl& d = *shape.decl;
    Fact f;
    f.kind = FactKind::Tally;
    f.def = gen.callable_for(d);
    VarInfo table;
    table.name = d.name;
    for (const auto& formal : d.formals) {
      table.dims.push_back(count_of_kind(out, kind_of_type(formal.type)));
      table.lows.push_back(0);
      table.dim_kinds.push_back(kind_of_type(formal.type));
    }
    int64_t slots = 1;
    for (int n : table.dims) slots *= n;  // at most kMaxTableDims factors of at most kMaxPieces
    if (slots + out.state_size > lang::kMaxTableCells) {
      diags.report(diag::Code::too_large, d.name_span,
                   fmt::format("the fact '{}' keeps {} values, and the state may hold {} in all", d.name, slots,
                               lang::kMaxTableCells));
      return;
    }
    out.declared_facts.emplace_back(table, f.def);
    if (!optimized) continue;
    auto of_element = [&](const ast::Expr& e, const std::string& what) {
      int c = gen.new_callable(fmt::format("fact {} {}", d.name, what), d.frame);
      const int frame = out.callables[c].frame;
      out.callables[c].params.push_back(frame + shape.aggregate->sym);
      int body = gen.expr(e, frame);
      out.callables[c].body = body;
      out.callables[c].is_expr = true;
      return c;
    };
    for (const auto& [e, key] : shape.parts)
      f.steps.push_back({of_element(*e, key < 0 ? "condition" : "key " + d.formals[key].name), key});
    if (shape.weight) f.weight = of_element(*shape.weight, "value");
    f.key_sizes = table.dims;
    f.elements = count_of_kind(out, shape.element);
    for (int sym : shape.feeds)
      for (size_t v = 0; v < out.vars.size(); ++v)
        if (out.vars[v].name == ck.syms[sym].name) f.feeds.push_back(static_cast<int>(v));
    f.slots = static_cast<int>(slots);
    f.base = out.state_size;
    f.entries = table;
    f.entries.base = f.base;
    out.state_size += f.slots;
    out.initial.resize(out.state_size, 0);  // counted by the runtime before setup (runtime/tallies.cpp)
    out.facts.push_back(std::move(f));
  }
}

}  // namespace keli::compile
