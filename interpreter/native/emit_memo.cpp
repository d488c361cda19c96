// Values remembered while one rule's moves are listed, in generated code. The interpreter
// remembers every call of a remembered definition (Callable::memo) while moves are listed, in a
// table looked up by the arguments' hash (runtime/machine.cpp); in generated code such a lookup
// costs more than most calls it saves. What pays is narrower: a call in a rule's guard or a
// parameter's filter whose arguments are only constants and inner parameters (never the first)
// answers the same for every value of the parameters outside it, so it is remembered in a small
// array indexed by the inner parameters' positions in their domains (one entry when its
// arguments are constants, as in a filter of the first parameter: the same for every value). Those domains must read no
// local (so they list the same values each time they open, the state being frozen while moves
// are listed) and have a size known before play. As in the interpreter, a value remembered
// charges the work its computing cost, and is computed again when the budget left is smaller,
// so the step runs out of work where it would have without it.
#include <fmt/format.h>

#include "lang/limits.hpp"
#include "native/emitter.hpp"

namespace keli::native {
using compile::Node;
using compile::Op;

namespace {

// Whether an expression tree reads a local slot or calls a definition (either may differ
// between two openings of a domain).
bool reads_locals_or_calls(const compile::Program& p, int idx) {
  if (idx < 0) return false;
  const Node& n = p.code[idx];
  if (n.op == Op::Local || n.op == Op::Call || n.op == Op::CallStmt) return true;
  for (int k : n.k)
    if (reads_locals_or_calls(p, k)) return true;
  return false;
}

// The most elements a domain node can list, or -1 when not known before play.
int64_t domain_bound(const compile::Program& p, int dom) {
  const Node& n = p.code[dom];
  auto imm = [&](int k) { return k >= 0 && p.code[k].op == Op::Imm; };
  switch (n.op) {
    case Op::DomRange:
      if (!imm(n.k[0]) || !imm(n.k[1])) return -1;
      return std::max<int64_t>(0, p.code[n.k[1]].a - int64_t{p.code[n.k[0]].a} + 1);
    case Op::DomCount: return p.count_of(static_cast<lang::DomainOf>(n.aux));
    case Op::DomIndex: {
      const compile::DomainIndex& ix = p.domain_indexes[n.a];
      size_t most = ix.none.size();
      for (const auto& list : ix.lists) most = std::max(most, list.size());
      return static_cast<int64_t>(most);
    }
    case Op::DomBelow: return domain_bound(p, n.k[0]);
    default: return -1;
  }
}

}  // namespace

// Finds the calls of the rule's guard and filters worth remembering and declares their arrays;
// counters[k] is the name of parameter k's loop position.
void Emitter::plan_memo(const compile::Rule& rule, const std::vector<std::string>& counters) {
  memo_sites_.clear();
  if (p_.guards_write_state || rule.params.empty()) return;
  std::vector<int64_t> bound(rule.params.size(), -1);
  for (size_t k = 1; k < rule.params.size(); ++k)
    if (!reads_locals_or_calls(p_, rule.params[k].domain)) bound[k] = domain_bound(p_, rule.params[k].domain);
  // A call evaluated where parameters 0 .. bound_params - 1 have their values.
  auto visit = [&](auto&& self, int idx, size_t bound_params) -> void {
    if (idx < 0) return;
    const Node& n = p_.code[idx];
    for (int k : n.k) self(self, k, bound_params);
    if (n.op != Op::Call) return;
    for (int i = 0; i < n.c; ++i) self(self, p_.args[n.b + i], bound_params);
    if (!p_.callables[n.a].memo || !passes_args(n.a) || memo_sites_.count(idx)) return;
    std::string key = "0";
    int64_t size = 1;
    for (int i = 0; i < n.c; ++i) {
      const Node& arg = p_.code[p_.args[n.b + i]];
      if (arg.op == Op::Imm) continue;
      size_t k = 1;
      while (k < bound_params && !(arg.op == Op::Local && rule.params[k].slot == arg.a)) ++k;
      if (k == bound_params || bound[k] <= 0 || size * bound[k] > lang::kMemoSlots) return;
      key = fmt::format("({}) * {} + {}", key, bound[k], counters[k]);
      size *= bound[k];
    }
    const std::string table = fmt::format("m{}", idx);
    memo_sites_[idx] = {table, key};
    line(fmt::format("int64_t {0}_value[{1}], {0}_cost[{1}]; bool {0}_known[{1}] = {{}};", table, size));
  };
  for (size_t k = 0; k < rule.params.size(); ++k) {  // the first's: calls with constants alone
    visit(visit, rule.params[k].filter, k + 1);
    visit(visit, rule.params[k].distinct, k + 1);
  }
  visit(visit, rule.guard, rule.params.size());
}

// The call at node idx (its arguments already computed), through its array.
std::string Emitter::memo_call(int idx, const std::string& call) {
  const MemoSite& m = memo_sites_.at(idx);
  const std::string v = tmp(), key = tmp();
  line(fmt::format("int64_t {};", v));
  line(fmt::format("const int {} = {};", key, m.key));
  open(fmt::format("if ({0}_known[{1}] && {0}_cost[{1}] <= c->work_left) {{", m.table, key));
  line(fmt::format("c->work_left -= {}_cost[{}];", m.table, key));
  line(fmt::format("{} = {}_value[{}];", v, m.table, key));
  close("} else {");
  ++indent_;
  line("const int64_t work_before = c->work_left;");
  line(fmt::format("{} = {};", v, call));
  line(fmt::format("{0}_value[{1}] = {2}; {0}_cost[{1}] = work_before - c->work_left; {0}_known[{1}] = true;", m.table,
                   key, v));
  close();
  return v;
}

}  // namespace keli::native
