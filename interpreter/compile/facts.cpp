// Finding the facts the engine can keep (compile/facts.hpp): an aggregate with no filter over a
// domain known before play, whose body tests one cell at the loop's element,
// `count/any/all(x in D: T[e][x] op k)` (or T[x][e], or a one-dimensional T[x]; or the cell
// itself as a truth value), becomes a read of a hidden count per position of e. T is a state
// table or a declared fact (`here(e, x)`, whose entries are kept in slots too); the entries of a
// declared count may also be added up, `sum(x in D: here(e, x))` (their total is at most the
// fact's elements, so it fits a slot). Tables of three or more dimensions are left to the
// aggregate. The rewrite keeps every error: the domain must have elements and lie inside the
// table, so the original reads e, and fails on it if it fails, at its first element, as FactGet
// does; a declared fact read with e out of range is 0 in every entry, and so is FactGet's answer.
#include "compile/facts.hpp"

#include <fmt/format.h>

#include "compile/optimize_tools.hpp"

namespace keli::compile {
namespace {

using lang::Operator;

// `k op cell` as `cell op' k`.
Operator mirrored(Operator op) {
  switch (op) {
    case Operator::Lt: return Operator::Gt;
    case Operator::Le: return Operator::Ge;
    case Operator::Gt: return Operator::Lt;
    case Operator::Ge: return Operator::Le;
    default: return op;
  }
}

class FactFinder : NodeTools {
 public:
  using NodeTools::NodeTools;

  int find(int idx) {
    const Node n = p_.code[idx];
    FactRead read = FactRead::Count;
    Fact f;
    switch (n.op) {
      case Op::AggCount: break;
      case Op::AggSum: f.sums = true; break;
      case Op::AggAny: read = FactRead::Any; break;
      case Op::AggAll: read = FactRead::All; break;
      default: return idx;
    }
    int64_t first, last;
    if (n.k[2] >= 0 || n.k[kLoopWhile] >= 0 || !range(n.k[0], first, last) || first > last) return idx;
    int cell = f.sums ? count_read(n.k[1]) : test(n.k[1], f);
    if (cell < 0) return idx;
    const Node& g = p_.code[cell];
    if (g.op == Op::FactGet) f.tally = g.a;
    const VarInfo& t = f.tally < 0 ? p_.vars[g.a] : p_.facts[g.a].entries;
    if (t.dims.size() > 2) return idx;  // a count per position of two other indices: not kept
    int other = -1;
    f.var = f.tally < 0 ? g.a : 0;
    f.along = -1;
    for (size_t d = 0; d < t.dims.size(); ++d) {
      const Node& ix = p_.code[g.k[d]];
      if (ix.op == Op::Local && ix.a == n.a && f.along < 0)
        f.along = static_cast<int>(d);
      else
        other = g.k[d];
    }
    if (f.along < 0 || (t.dims.size() == 2 && (other < 0 || reads_local(other, n.a) || !plain(other)))) return idx;
    f.lo = static_cast<int>(first - t.lows[f.along]);
    f.hi = static_cast<int>(last - t.lows[f.along]);
    // Outside the table the original fails (a declared fact reads 0 there): leave it to the loop.
    if (f.lo < 0 || f.hi >= t.dims[f.along]) return idx;
    f.slots = t.dims.size() == 2 ? t.dims[1 - f.along] : 1;
    int fact = add(f);
    int out = new_node(Op::FactGet, cell);  // fails where the cell read would
    p_.code[out].a = fact;
    p_.code[out].aux = static_cast<uint8_t>(read);
    p_.code[out].k[0] = other;
    return out;
  }

 private:
  // The domain's first and last element when known before play.
  bool range(int dom, int64_t& first, int64_t& last) const {
    const Node& n = p_.code[dom];
    if (n.op == Op::DomRange) {
      if (!imm(n.k[0]) || !imm(n.k[1])) return false;
      first = val(n.k[0]);
      last = val(n.k[1]);
      return true;
    }
    if (n.op != Op::DomCount) return false;
    const auto of = static_cast<lang::DomainOf>(n.aux);
    first = 0;
    last = p_.count_of(of) - 1;
    return true;
  }

  // A read of one cell: of a state table, or an entry of a declared fact (kept in slots).
  bool cell_read(int idx) const {
    const Node& n = p_.code[idx];
    return n.op == Op::StateGet || (n.op == Op::FactGet && static_cast<FactRead>(n.aux) == FactRead::Tally);
  }

  // The body when it is a read of a declared count's entry (a sum of those is kept), or -1.
  int count_read(int body) const {
    const Node& n = p_.code[body];
    const bool entry = n.op == Op::FactGet && static_cast<FactRead>(n.aux) == FactRead::Tally;
    return entry && p_.facts[n.a].weight < 0 ? body : -1;
  }

  // The body's cell read and its test (into f), or -1: `cell op k`, `k op cell`, or the cell
  // itself as a truth value.
  int test(int body, Fact& f) const {
    if (cell_read(body)) {
      f.op = Operator::Ne;
      f.k = 0;
      return body;
    }
    const Node& b = p_.code[body];
    auto op = lang::node_operator(b.op);
    if (!op) return -1;
    lang::OpClass c = lang::operator_info(*op).cls;
    if (c != lang::OpClass::Equality && c != lang::OpClass::Ordering) return -1;
    for (int side = 0; side < 2; ++side) {
      if (!cell_read(b.k[side]) || !imm(b.k[1 - side])) continue;
      f.op = side == 0 ? *op : mirrored(*op);
      f.k = val(b.k[1 - side]);
      return b.k[side];
    }
    return -1;
  }

  int add(Fact f) {
    for (size_t i = 0; i < p_.facts.size(); ++i) {
      const Fact& g = p_.facts[i];
      if (g.kind == FactKind::Cells && g.var == f.var && g.tally == f.tally && g.along == f.along && g.lo == f.lo &&
          g.hi == f.hi && g.sums == f.sums && (f.sums || (g.op == f.op && g.k == f.k)))
        return static_cast<int>(i);
    }
    f.base = p_.state_size;
    p_.state_size += f.slots;
    p_.facts.push_back(f);
    return static_cast<int>(p_.facts.size()) - 1;
  }
};

// What each hidden slot of f should hold in s.
void recount(const Program& p, const Fact& f, const int32_t* s, std::vector<int32_t>& out) {
  const VarInfo& t = counted_table(p, f);
  out.assign(f.slots, 0);
  for (int rel = 0; rel < t.size(); ++rel) {
    int64_t along, other;
    fact_positions(f, t, rel, along, other);
    if (along >= f.lo && along <= f.hi) out[other] += static_cast<int32_t>(fact_part(f, s[t.base + rel]));
  }
}

}  // namespace

int keep_fact(Program& p, int idx) { return FactFinder(p).find(idx); }

namespace {
// Recounts the Cells facts (those over declared facts' entries only, or all of them).
void refresh_cells(const Program& p, int32_t* s, bool only_of_tallies) {
  std::vector<int32_t> counts;
  for (const Fact& f : p.facts) {
    if (f.kind != FactKind::Cells || (only_of_tallies && f.tally < 0)) continue;  // runtime/tallies.cpp counts Tally
    recount(p, f, s, counts);
    std::copy(counts.begin(), counts.end(), s + f.base);
  }
}
}  // namespace

void refresh_facts(const Program& p, std::vector<int32_t>& s) {
  s.resize(p.state_size);
  refresh_cells(p, s.data(), false);
}

void refresh_facts_of_tallies(const Program& p, int32_t* s) { refresh_cells(p, s, true); }

std::string check_facts(const Program& p, const std::vector<int32_t>& s) {
  std::vector<int32_t> counts;
  for (const Fact& f : p.facts) {
    if (f.kind != FactKind::Cells) continue;
    recount(p, f, s.data(), counts);
    for (int i = 0; i < f.slots; ++i)
      if (s[f.base + i] != counts[i])
        return fmt::format("the count kept of `{}` cells {} (position {} of its other index) is {}, not {}",
                           counted_table(p, f).name,
                           f.sums ? "added up" : fmt::format("{} {}", lang::operator_info(f.op).spelling, f.k), i,
                           s[f.base + i], counts[i]);
  }
  return {};
}

void finish_facts(Program& p) {
  p.facts_of_var.assign(p.vars.size(), {});
  p.tallies_of_var.assign(p.vars.size(), {});
  p.facts_of_tally.assign(p.facts.size(), {});
  for (size_t i = 0; i < p.facts.size(); ++i) {
    const Fact& f = p.facts[i];
    if (f.kind == FactKind::Cells)
      (f.tally < 0 ? p.facts_of_var[f.var] : p.facts_of_tally[f.tally]).push_back(static_cast<int>(i));
    else
      for (int v : f.feeds) p.tallies_of_var[v].push_back(static_cast<int>(i));
  }
  refresh_facts(p, p.initial);
}

}  // namespace keli::compile
