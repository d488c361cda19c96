// A failed invariant as an error a person can act on: at the invariant's declaration (in a base
// file for an inherited one), with the step and the values of the state variables its condition
// reads, directly or through the definitions it calls.
#include <fmt/format.h>

#include <set>

#include "runtime/game.hpp"

namespace keli::runtime {

namespace {
// Most variables named in the message: a condition reading more is summarised with "...".
constexpr size_t kMaxShownValues = 8;
// A table of at most this many cells is shown whole (`at = [6, 2]`); a larger one by name only.
constexpr int kMaxShownCells = 8;

void collect_reads(const compile::Program& p, int idx, std::set<int>& vars, std::set<int>& seen) {
  for (; idx >= 0; idx = p.code[idx].next) {
    const compile::Node& n = p.code[idx];
    if (n.op == compile::Op::StateGet) vars.insert(n.a);
    if (n.op == compile::Op::DomSearch) vars.insert(n.b);  // group(T, s) reads T whole
    if ((n.op == compile::Op::Call || n.op == compile::Op::CallStmt) && seen.insert(n.a).second) {
      collect_reads(p, p.callables[n.a].body, vars, seen);
      for (int i = 0; i < n.c; ++i) collect_reads(p, p.args[n.b + i], vars, seen);
    }
    for (int i = 0; i < compile::kNodeKids; ++i) collect_reads(p, n.k[i], vars, seen);
  }
}

std::string value_text(const compile::Program& p, const compile::VarInfo& v, int32_t x) {
  if (v.kind == lang::ValueKind::Bool) return x ? "true" : "false";
  if (v.kind == lang::ValueKind::Player && x >= 0 && x < static_cast<int32_t>(p.seat_names.size()))
    return p.seat_names[static_cast<size_t>(x)];
  return std::to_string(x);
}

// "n = 3, at = [6, 2], here (a table of 4096 cells)": values, a large table by name.
std::string values_read(const compile::Program& p, int callable, const State& s) {
  std::set<int> vars, seen{callable};
  collect_reads(p, p.callables[callable].body, vars, seen);
  std::string out;
  size_t shown = 0;
  for (int v : vars) {
    if (v < 0 || v >= static_cast<int>(p.vars.size())) continue;
    const compile::VarInfo& var = p.vars[static_cast<size_t>(v)];
    if (shown++ == kMaxShownValues) {
      out += ", ...";
      break;
    }
    out += out.empty() ? "" : ", ";
    if (var.dims.empty() && var.base >= 0 && var.base < static_cast<int>(s.size()))
      out += fmt::format("{} = {}", var.name, value_text(p, var, s[static_cast<size_t>(var.base)]));
    else if (var.size() <= kMaxShownCells && var.base >= 0 && var.base + var.size() <= static_cast<int>(s.size())) {
      std::string cells;
      for (int i = 0; i < var.size(); ++i)
        cells += (i ? ", " : "") + value_text(p, var, s[static_cast<size_t>(var.base + i)]);
      out += fmt::format("{} = [{}]", var.name, cells);
    } else {
      out += fmt::format("{} (a table of {} cells)", var.name, var.size());
    }
  }
  return out;
}
}  // namespace

std::optional<diag::Error> Game::invariant_failure(const State& s) {
  for (const compile::InvariantInfo& inv : p_->invariants) {
    if (call(s, inv.callable, nullptr, 0)) continue;
    std::string values = values_read(*p_, inv.callable, s);
    return diag::Error{diag::Code::invariant_failed, inv.span,
                       fmt::format("the invariant \"{}\" does not hold after step {} (move {}){}", inv.text, ply(s),
                                   moves(s), values.empty() ? "" : ": " + values),
                       ""};
  }
  return std::nullopt;
}

}  // namespace keli::runtime
