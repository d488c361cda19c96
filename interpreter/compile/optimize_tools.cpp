// The optimizer's shared tests of expressions (compile/optimize_tools.hpp says what each means).
#include "compile/optimize_tools.hpp"

#include "lang/collections.hpp"
#include "lang/operators.hpp"

namespace keli::compile {

namespace {
bool is_truth_value(const Node& n) {
  auto o = lang::node_operator(n.op);
  if (o) return lang::operator_info(*o).cls != lang::OpClass::Arithmetic;
  if (n.op == Op::FactGet)
    return static_cast<FactRead>(n.aux) == FactRead::Any || static_cast<FactRead>(n.aux) == FactRead::All;
  return n.op == Op::AggAny || n.op == Op::AggAll;
}
// Reads that cannot fail: a number, a local, the mover, the phase, the ply.
bool simple_read(Op op) {
  return op == Op::Imm || op == Op::Local || op == Op::Mover || op == Op::Phase || op == Op::Ply;
}
}  // namespace

int NodeTools::truth(int idx, int x) {
  if (is_truth_value(p_.code[x])) return x;
  Node n;
  n.op = Op::Ne;
  n.k[0] = x;
  n.k[1] = new_node(Op::Imm, idx);
  p_.code[idx] = n;
  return idx;
}

bool NodeTools::cheap(int idx, int depth) const {
  if (idx < 0) return true;
  if (depth > 4) return false;
  const Node& n = p_.code[idx];
  if (simple_read(n.op)) return true;
  switch (n.op) {
    case Op::StateGet: return fixed_index(p_.vars[n.a], n);
    case Op::Not: return cheap(n.k[0], depth + 1);
    default: {
      auto op = lang::node_operator(n.op);
      if (!op) return false;
      lang::OpClass c = lang::operator_info(*op).cls;
      if (c != lang::OpClass::Equality && c != lang::OpClass::Ordering) return false;
      return cheap(n.k[0], depth + 1) && cheap(n.k[1], depth + 1);
    }
  }
}

bool NodeTools::plain(int idx, int depth) const {
  if (idx < 0) return true;
  if (depth > 8) return false;
  const Node& n = p_.code[idx];
  if (simple_read(n.op)) return true;
  switch (n.op) {
    case Op::Roll:
    case Op::StateGet:
    case Op::ConstGet:
    case Op::FactGet:
    case Op::RegionId:
    case Op::RegionSite:
    case Op::In:
    case Op::Cond:
    case Op::Builtin: break;
    default:
      if (!lang::node_operator(n.op)) return false;  // calls, aggregates, domains
  }
  for (int i = 0; i < kNodeKids; ++i)
    if (!plain(n.k[i], depth + 1)) return false;
  return true;
}

bool NodeTools::fixed_index(const VarInfo& t, const Node& n) const {
  for (size_t d = 0; d < t.dims.size(); ++d) {
    if (!imm(n.k[d])) return false;
    int64_t i = val(n.k[d]) - t.lows[d];
    if (i < 0 || i >= t.dims[d]) return false;
  }
  return true;
}

bool NodeTools::takes_from_collection(int idx) const {
  if (idx < 0) return false;
  const Node& n = p_.code[idx];
  if (n.op == Op::CollCall && lang::coll_takes(static_cast<lang::CollFunction>(n.d))) return true;
  for (int i = 0; i < kNodeKids; ++i)
    if (takes_from_collection(n.k[i])) return true;
  return false;
}

bool NodeTools::reads_local(int idx, int slot) const {
  if (idx < 0) return false;
  const Node& n = p_.code[idx];
  if (n.op == Op::Local && n.a == slot) return true;
  for (int i = 0; i < kNodeKids; ++i)
    if (reads_local(n.k[i], slot)) return true;
  return false;
}

}  // namespace keli::compile
