// The emitter's expressions: each node becomes sequenced C++ locals (left operand first), every
// operator through keli::lang::apply (the one arithmetic), every check of runtime/machine.cpp
// kept with its fault.
#include <fmt/format.h>

#include "compile/facts.hpp"
#include "lang/builtins.hpp"
#include "lang/limits.hpp"
#include "native/emitter.hpp"

namespace keli::native {
using compile::Node;
using compile::Op;

std::string Emitter::fault(int node, const char* kind, const std::string& a, const std::string& b,
                           const std::string& c) {
  return fmt::format("fault(c, {}, {}, {}, {}, {})", node, kind, a, b, c);
}

std::string Emitter::arith(const char* op, int node, const std::string& a, const std::string& b) {
  std::string t = tmp();
  line(fmt::format("const int64_t {} = ar<Operator::{}>(c, {}, {}, {});", t, op, node, a, b));
  return t;
}

// The region a node's operand names, checked as region_of does.
std::string Emitter::region_checked(int node, int region_expr) {
  std::string r = expr(region_expr);
  line(fmt::format("if (static_cast<uint64_t>({}) >= {}u) {};", r, p_.regions.size(),
                   fault(node, "KELI_FAULT_REGION", "0", r)));
  return r;
}

// Play-time table offsets: flat_offset for state and constant tables (every index checked
// against its dimension, left to right), table_offset for region tables (the same at play).
std::string Emitter::table_offset(const compile::VarInfo& t, const Node& n, int node) {
  std::string off = tmp();
  line(fmt::format("int64_t {} = 0;", off));
  for (size_t d = 0; d < t.dims.size(); ++d) {
    std::string v = expr(n.k[d]);
    std::string i = tmp();
    line(fmt::format("const int64_t {} = {} - ({});", i, v, t.lows[d]));
    line(fmt::format("if (static_cast<uint64_t>({}) >= {}u) {};", i, t.dims[d],
                     fault(node, "KELI_FAULT_INDEX", std::to_string(d), i)));
    line(fmt::format("{} = {} * {} + {};", off, off, t.dims[d], i));
  }
  return fmt::format("({} + {})", t.base, off);
}

std::string Emitter::truth_op(const Node& n) {
  std::string t = tmp();
  line(fmt::format("int64_t {};", t));
  std::string a = expr(n.k[0]);
  const bool is_and = n.op == Op::And;
  open(fmt::format("if ({}{}) {{", is_and ? "" : "!", a));
  std::string b = expr(n.k[1]);
  line(fmt::format("{} = {} != 0;", t, b));
  close(fmt::format("}} else {{ {} = {}; }}", t, is_and ? 0 : 1));
  return t;
}

std::string Emitter::expr(int idx) {
  const Node& n = p_.code[idx];
  auto named = [&](const std::string& value) {
    std::string t = tmp();
    line(fmt::format("const int64_t {} = {};", t, value));
    return t;
  };
  switch (n.op) {
    case Op::Imm: return fmt::format("int64_t({})", n.a);
    case Op::Local: return named(slot(n.a));
    case Op::StateGet: return named(fmt::format("s[{}]", table_offset(p_.vars[n.a], n, idx)));
    case Op::FactGet: return fact(n, idx);
    case Op::ConstGet: return named(fmt::format("K[{}]", table_offset(p_.const_tables[n.a], n, idx)));
    case Op::Mover: return named(fmt::format("s[{}]", static_cast<int>(compile::kMover)));
    case Op::Phase: return named(fmt::format("s[{}]", static_cast<int>(compile::kPhase)));
    case Op::Ply: return named(fmt::format("s[{}]", static_cast<int>(compile::kPly)));
    case Op::Repetitions: {
      std::string r = named("keli::lang::repetitions(s, kHistory, static_cast<const keli::lang::PastView*>(c->past))");
      line(fmt::format("if ({} < 0) {};", r, fault(idx, "KELI_FAULT_HISTORY")));
      return r;
    }
    case Op::Roll: {
      std::string i = expr(n.k[0]);
      line(fmt::format("if ({} < 0 || {} >= c->nroll) {};", i, i, fault(idx, "KELI_FAULT_ROLL", "0", i, "c->nroll")));
      return named(fmt::format("c->roll[{}]", i));
    }
    case Op::RegionId: return named(table_offset(p_.region_tables[n.a], n, idx));
    case Op::RegionSite: {
      std::string r = region_checked(idx, n.k[0]);
      std::string i = expr(n.k[1]);
      line(fmt::format("if ({} < 0 || {} >= RN[{}]) {};", i, i, r,
                       fault(idx, "KELI_FAULT_POSITION", "0", i, "RN[" + r + "]")));
      return named(fmt::format("RS[RO[{}] + {}]", r, i));
    }
    case Op::Neg: return named(fmt::format("ar1<Operator::Neg>(c, {}, {})", idx, expr(n.k[0])));
    case Op::Not: return named(fmt::format("ar1<Operator::Not>(c, {}, {})", idx, expr(n.k[0])));
    case Op::And:
    case Op::Or: return truth_op(n);
    case Op::Cond: {
      std::string t = tmp();
      line(fmt::format("int64_t {};", t));
      std::string cond = expr(n.k[0]);
      open(fmt::format("if ({}) {{", cond));
      line(fmt::format("{} = {};", t, expr(n.k[1])));
      close("} else {");
      ++indent_;
      line(fmt::format("{} = {};", t, expr(n.k[2])));
      close();
      return t;
    }
    case Op::In: {
      std::string site = expr(n.k[0]);
      std::string r = region_checked(idx, n.k[1]);
      return named(
          fmt::format("{} >= 0 && {} < {} && ({} < {} ? RX[{} * {} + {}] : index_of(RS + RO[{}], RN[{}], {})) >= 0",
                      site, site, p_.num_sites, r, p_.region_index.size(), r, p_.num_sites, site, r, r, site));
    }
    case Op::Call:
    case Op::CallStmt: return call(n, idx);
    case Op::Builtin: return builtin(n, idx);
    case Op::AggSum:
    case Op::AggCount:
    case Op::AggAny:
    case Op::AggAll:
    case Op::AggMin:
    case Op::AggMax: return aggregate(n, idx);
    case Op::CollHas:
    case Op::CollCall:
    case Op::CollGet: return collection_expr(n, idx);
    default: break;
  }
  if (auto op = lang::node_operator(n.op)) {
    std::string a = expr(n.k[0]);
    std::string b = expr(n.k[1]);
    return arith(lang::node_kind_info(n.op).name, idx, a, b);
    (void)op;
  }
  throw std::logic_error(fmt::format("native: node {} ({}) is not a value", idx, lang::node_kind_info(n.op).name));
}

std::string Emitter::builtin(const Node& n, int idx) {
  using lang::Builtin;
  std::string t = tmp();
  switch (static_cast<Builtin>(n.a)) {
    case Builtin::size: {
      std::string r = region_checked(idx, n.k[0]);
      line(fmt::format("const int64_t {} = RN[{}];", t, r));
      return t;
    }
    case Builtin::index: {
      std::string r = region_checked(idx, n.k[0]);
      std::string site = expr(n.k[1]);
      line(fmt::format("const int64_t {} = index_of(RS + RO[{}], RN[{}], {});", t, r, r, site));
      return t;
    }
    case Builtin::next: {
      std::string r = region_checked(idx, n.k[0]);
      std::string site = expr(n.k[1]);
      // NX: the site after each site of each of the game's regions (-1 when the site is not on it);
      // the geometry's regions, after them, are scanned.
      line(fmt::format(
          "const int64_t {} = {} < 0 || {} >= {} ? -1 : {} < {} ? NX[{} * {} + {}] : next_of(RS + RO[{}], RN[{}], {});",
          t, site, site, p_.num_sites, r, p_.region_index.size(), r, p_.num_sites, site, r, r, site));
      line(fmt::format("if ({} < 0) {};", t, fault(idx, "KELI_FAULT_NOT_ON_TRACK", "0", site)));
      return t;
    }
    case Builtin::next_seat: {
      std::string a = expr(n.k[0]);
      std::string up = arith("Add", idx, a, "int64_t(1)");
      line(fmt::format("const int64_t {} = {} % {};", t, up, p_.num_players));  // the interpreter's C++ remainder
      return t;
    }
    case Builtin::abs: {
      std::string a = expr(n.k[0]);
      line(fmt::format("const int64_t {} = absolute(c, {}, {});", t, idx, a));
      return t;
    }
    case Builtin::min:
    case Builtin::max: {
      std::string a = expr(n.k[0]);
      std::string b = expr(n.k[1]);
      const bool mn = static_cast<Builtin>(n.a) == Builtin::min;
      line(fmt::format("const int64_t {} = {} {} {} ? {} : {};", t, b, mn ? "<" : ">", a, b, a));
      return t;
    }
    default: line(fault(idx, "KELI_FAULT_BUILD_ONLY") + ";"); return "int64_t(0)";
  }
}

std::string Emitter::aggregate(const Node& n, int idx) {
  std::string acc = tmp(), any = tmp(), i = tmp();
  line(fmt::format("int64_t {} = {};", acc, n.op == Op::AggAll ? 1 : 0));
  line(fmt::format("bool {} = false;", any));
  open_domain_loop(n, idx, i);
  std::string v = expr(n.k[1]);
  switch (n.op) {
    case Op::AggSum: line(fmt::format("{} = ar<Operator::Add>(c, {}, {}, {});", acc, idx, acc, v)); break;
    case Op::AggCount: line(fmt::format("{} += {} ? 1 : 0;", acc, v)); break;
    case Op::AggAny: line(fmt::format("if ({}) {{ {} = 1; break; }}", v, acc)); break;
    case Op::AggAll: line(fmt::format("if (!{}) {{ {} = 0; break; }}", v, acc)); break;
    case Op::AggMin: line(fmt::format("{} = {} ? ({} < {} ? {} : {}) : {};", acc, any, v, acc, v, acc, v)); break;
    case Op::AggMax: line(fmt::format("{} = {} ? ({} > {} ? {} : {}) : {};", acc, any, v, acc, v, acc, v)); break;
    default: break;
  }
  line(fmt::format("{} = true;", any));
  close();
  close();
  if (n.op == Op::AggMin || n.op == Op::AggMax) line(fmt::format("if (!{}) {};", any, fault(idx, "KELI_FAULT_EMPTY")));
  return acc;
}

// The loop of a `for` or an aggregate (a=slot k0=domain k2=filter k3=while, at node idx): a scope,
// the domain opened once and charged whole to the work budget, its elements in order in the slot,
// the `while` condition stopping and the filter skipping; the caller writes the body and closes both.
void Emitter::open_domain_loop(const Node& n, int idx, const std::string& i) {
  open("{");
  Dom d = domain(n.k[0]);
  line(fmt::format("spend(c, {}, {});", idx, d.size));
  open(fmt::format("for (int {} = 0; {} < {}; ++{}) {{", i, i, d.size, i));
  line(fmt::format("{} = {};", slot(n.a), element(d, i)));
  if (n.k[compile::kLoopWhile] >= 0) {
    std::string w = expr(n.k[compile::kLoopWhile]);
    line(fmt::format("if (!{}) break;", w));
  }
  if (n.k[2] >= 0) {
    std::string f = expr(n.k[2]);
    line(fmt::format("if (!{}) continue;", f));
  }
}

Emitter::Dom Emitter::domain(int dom) {
  const Node& n = p_.code[dom];
  Dom d;
  d.size = tmp();
  switch (n.op) {
    case Op::DomRange: {
      d.lo = expr(n.k[0]);
      std::string hi = expr(n.k[1]);
      line(fmt::format("if (static_cast<int64_t>(static_cast<uint64_t>({}) - static_cast<uint64_t>({}) + 1u) > {}) {};",
                       hi, d.lo, lang::kMaxLoopIterations, fault(dom, "KELI_FAULT_RANGE", "0", d.lo, hi)));
      line(fmt::format("const int {} = {} < {} ? 0 : static_cast<int>({} - {} + 1);", d.size, hi, d.lo, hi, d.lo));
      return d;
    }
    case Op::DomRegion: {
      std::string r = region_checked(dom, n.k[0]);
      d.list = tmp();
      line(fmt::format("const int32_t* {} = RS + RO[{}];", d.list, r));
      line(fmt::format("const int {} = RN[{}];", d.size, r));
      return d;
    }
    case Op::DomIndex: {
      const compile::DomainIndex& ix = p_.domain_indexes[n.a];
      std::string v = expr(n.k[0]);
      std::string i = tmp();
      d.list = tmp();
      const size_t nl = ix.lists.size();
      line(fmt::format("const int64_t {} = {} - ({}) >= 0 && {} - ({}) < {} ? {} - ({}) : {};", i, v, ix.low, v, ix.low,
                       nl, v, ix.low, nl));  // the last list is `none`
      line(fmt::format("const int32_t* {} = DI{}_E + DI{}_O[{}];", d.list, n.a, n.a, i));
      line(fmt::format("const int {} = DI{}_O[{} + 1] - DI{}_O[{}];", d.size, n.a, i, n.a, i));
      return d;
    }
    case Op::DomCount: {
      const int size = p_.count_of(static_cast<lang::DomainOf>(n.aux));
      d.lo = "int64_t(0)";
      line(fmt::format("const int {} = {};", d.size, size));
      return d;
    }
    case Op::DomBelow: {
      d = domain(n.k[0]);
      std::string bound = expr(n.k[1]), cut = tmp();
      if (!d.list.empty())
        line(fmt::format("const int {} = below_list({}, {}, {}, {});", cut, d.list, d.size, bound,
                         n.aux ? "true" : "false"));
      else
        line(fmt::format("const int {} = below_range({}, {}, {}, {});", cut, d.lo, d.size, bound,
                         n.aux ? "true" : "false"));
      d.size = cut;
      return d;
    }
    case Op::DomColl:  // as the interpreter: what it holds when the loop starts, which does not change
      d.coll = collection_args(n);
      line(fmt::format(
          "const int {} = static_cast<int>(keli::lang::coll_size(L + {}, static_cast<keli::lang::CollKind>({})));",
          d.size, n.a, n.aux));
      return d;
    case Op::DomSearch: return search_domain(n, dom, d.size);
    default: throw std::logic_error(fmt::format("native: node {} is not a domain", dom));
  }
}

// A call: its arguments left to right, then the unit of work it costs, as the interpreter; a
// call remembered while the rule's moves are listed goes through its array (emit_memo.cpp).
std::string Emitter::call(const Node& n, int idx) {
  const compile::Callable& cl = p_.callables[n.a];
  std::vector<std::string> args;
  for (int i = 0; i < n.c && i < lang::kMaxArgs; ++i) args.push_back(expr(p_.args[n.b + i]));
  if (!passes_args(n.a))
    for (size_t i = 0; i < args.size() && i < cl.params.size(); ++i)
      line(fmt::format("L[{}] = {};", cl.params[i], args[i]));
  line(fmt::format("spend(c, {});", idx));
  const std::string call = fmt::format("f{}(c, s, L{})", n.a, call_args(n.a, args));
  if (memo_sites_.count(idx)) return memo_call(idx, call);
  const std::string t = tmp();
  line(fmt::format("const int64_t {} = {};", t, call));
  return t;
}

std::string Emitter::element(const Dom& d, const std::string& i) {
  if (!d.list.empty()) return fmt::format("int64_t({}[{}])", d.list, i);
  if (!d.coll.empty()) return fmt::format("keli::lang::coll_value({}, {})", d.coll, i);
  return fmt::format("({} + {})", d.lo, i);
}

// A count the engine keeps, read as runtime/machine_domains.cpp's read_fact: the other index
// checked as the cell read would check it (a declared fact's entries outside its keys are 0).
std::string Emitter::fact(const Node& n, int idx) {
  const compile::Fact& f = p_.facts[n.a];
  if (f.kind == compile::FactKind::Tally) return tally(n);
  const compile::VarInfo& t = compile::counted_table(p_, f);
  std::string at = "0";
  std::string count = fmt::format("s[{} + {}]", f.base, at);
  if (t.dims.size() == 2) {
    const int other = 1 - f.along;
    std::string v = expr(n.k[0]);
    at = tmp();
    line(fmt::format("const int64_t {} = {} - ({});", at, v, t.lows[other]));
    const std::string outside = fmt::format("static_cast<uint64_t>({}) >= {}u", at, t.dims[other]);
    count = fmt::format("s[{} + {}]", f.base, at);
    if (f.tally < 0)
      line(fmt::format("if ({}) {};", outside, fault(idx, "KELI_FAULT_INDEX", std::to_string(other), at)));
    else  // a declared fact's entries outside its keys are 0
      count = fmt::format("({} ? int64_t({}) : int64_t({}))", outside, compile::fact_of_zeros(f), count);
  }
  std::string out = tmp();
  switch (static_cast<compile::FactRead>(n.aux)) {
    case compile::FactRead::Count: line(fmt::format("const int64_t {} = {};", out, count)); break;
    case compile::FactRead::Any: line(fmt::format("const int64_t {} = {} > 0;", out, count)); break;
    case compile::FactRead::All: line(fmt::format("const int64_t {} = {} == {};", out, count, f.hi - f.lo + 1)); break;
    case compile::FactRead::Tally: break;
  }
  return out;
}

}  // namespace keli::native
