// The optimizer: rewrites a compiled program's nodes so the evaluator does less work per move,
// without changing what any rule computes. Run once after code generation (never on the board
// builder's program). Passes, in order:
//   1. inline calls of expression definitions (`def f(x) = ...`) whose arguments are cheap and
//      side-effect free, so small helpers such as `team(p)` cost no call;
//   2. fold constants: parameters are numbers by now, the board and constant tables are fixed, so
//      `pairs and ...`, `size(path[0]) - 1` or `owner[3]` become immediates;
//   3. flat index tables (Program::var_access, const_access) for the evaluator's table reads;
//   4. find whether move guards and filters can write the state (legal() copies it only then);
//   5. domains indexed or cut short (optimize_domains.cpp) and counts kept as facts (facts.cpp);
//   6. the deepest nesting of frames a step can reach (frames.cpp), for the native engine.
#include "compile/optimize.hpp"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>

#include "lang/arith.hpp"
#include "lang/builtins.hpp"
#include "lang/limits.hpp"
#include "compile/facts.hpp"
#include "compile/frames.hpp"
#include "compile/optimize_tools.hpp"

namespace keli::compile {
namespace {

// Node kinds that compute an operator on numbers alone (no state, locals, dice or calls), read
// from the vocabulary's table.
bool is_pure_arith(Op op) {
  auto o = lang::node_operator(op);
  if (!o) return false;
  lang::OpClass c = lang::operator_info(*o).cls;
  return c == lang::OpClass::Arithmetic || c == lang::OpClass::Equality || c == lang::OpClass::Ordering ||
         *o == lang::Operator::Not;
}

class Optimizer : NodeTools {
 public:
  explicit Optimizer(Program& p) : NodeTools(p), done_(p.callables.size(), false) {}

  void run() {
    for (size_t c = 0; c < p_.callables.size(); ++c) callable(static_cast<int>(c));
    for (auto& r : p_.rules) {
      for (auto& prm : r.params) {
        prm.domain = expr(prm.domain);
        if (prm.filter >= 0) prm.filter = expr(prm.filter);
        if (prm.distinct >= 0) prm.distinct = expr(prm.distinct);
        prm.written_domain = expr(prm.written_domain);
        if (prm.written_filter >= 0) prm.written_filter = expr(prm.written_filter);
      }
      if (r.guard >= 0) r.guard = expr(r.guard);
    }
    // Whether a guard writes is asked of the folded guards: a call that a parameter's setting
    // leaves out (`ko_rule == simple or not brings_back(s)`) writes nothing.
    p_.guards_write_state = guards_write();
    p_.has_suppose = std::any_of(p_.code.begin(), p_.code.end(), [](const Node& n) { return n.op == Op::Suppose; });
    for (auto& r : p_.rules) {
      // Move generation reads a frozen state when no guard writes it: index the domains.
      if (!p_.guards_write_state)
        for (auto& prm : r.params) rewrite_domain(p_, prm.domain, prm.filter, prm.slot);
      for (auto& part : r.reads) {  // shown by the interpreter only: the domains stay unindexed
        if (part.domain >= 0) part.domain = expr(part.domain);
        if (part.filter >= 0) part.filter = expr(part.filter);
        if (part.value >= 0) part.value = expr(part.value);
        if (part.cond >= 0) part.cond = expr(part.cond);
      }
      stmts(r.body);
    }
    for (auto& ph : p_.phases) stmts(ph.chance_body);
    for (auto& hs : p_.handlers)
      for (auto& h : hs)
        if (h.guard >= 0) h.guard = expr(h.guard);
    mark_memo();
    finish_facts(p_);
    p_.max_frames = deepest_frames(p_);
  }

 private:
  // Callables are optimized callees first (the language has no recursion), so an inlined body is
  // already in its final form.
  void callable(int c) {
    if (done_[c]) return;
    done_[c] = true;
    Callable& cl = p_.callables[c];
    if (cl.body < 0) return;
    if (cl.is_expr)
      cl.body = expr(cl.body);
    else
      stmts(cl.body);
  }

  // Statement chains: every expression a statement holds is optimized in place. Nodes are read
  // by index after each call, since optimizing may append to the code (and move it).
  void stmts(int idx) {
    for (; idx >= 0; idx = p_.code[idx].next) {
      const Node n = p_.code[idx];
      const bool chains = n.op == Op::If || n.op == Op::While || n.op == Op::For || n.op == Op::Suppose;
      if (n.op == Op::Emit || n.op == Op::Finish || n.op == Op::CallStmt) {
        for (int i = 0; i < n.c; ++i) {
          int v = expr(p_.args[n.b + i]);
          p_.args[n.b + i] = v;
        }
        if (n.op == Op::CallStmt) callable(n.a);
        continue;
      }
      for (int i = 0; i < kNodeKids; ++i) {
        if (n.k[i] < 0) continue;
        if (chains && (i == 1 || (i == 2 && n.op == Op::If))) {
          stmts(n.k[i]);
          continue;
        }
        int v = expr(n.k[i]);
        p_.code[idx].k[i] = v;
      }
      if (n.d >= 0 && (n.op == Op::StateSet || n.op == Op::ConstSet)) {
        int v = expr(n.d);
        p_.code[idx].d = v;
      }
    }
  }

  // Optimizes an expression (or domain) node; returns the node to use in its place.
  int expr(int idx) {
    if (idx < 0) return idx;
    Node n = p_.code[idx];
    if (n.op == Op::Call) {
      for (int i = 0; i < n.c; ++i) {
        int v = expr(p_.args[n.b + i]);
        p_.args[n.b + i] = v;
      }
      callable(n.a);
      return inline_call(idx);
    }
    for (int i = 0; i < kNodeKids; ++i)
      if (n.k[i] >= 0) {
        int v = expr(n.k[i]);
        p_.code[idx].k[i] = v;
      }
    return fold(idx);
  }

  int fold(int idx) {
    const Node n = p_.code[idx];
    const int a = n.k[0], b = n.k[1], c = n.k[2];
    if (is_pure_arith(n.op) && imm(a) && (n.op == Op::Neg || n.op == Op::Not || imm(b))) {
      // The vocabulary's arithmetic, as play would compute it; a fault (division by zero,
      // overflow) is left for the evaluator to report at this node.
      lang::Result r = lang::apply(*lang::node_operator(n.op), val(a), n.op == Op::Neg || n.op == Op::Not ? 0 : val(b));
      if (r.ok()) return make_imm(idx, r.value);
    }
    switch (n.op) {
      case Op::And:  // `false and x` is false; `true and x` is x as a truth value
        if (imm(a)) return val(a) ? (imm(b) ? make_imm(idx, val(b) != 0) : truth(idx, b)) : make_imm(idx, 0);
        break;
      case Op::Or:
        if (imm(a)) return val(a) ? make_imm(idx, 1) : (imm(b) ? make_imm(idx, val(b) != 0) : truth(idx, b));
        break;
      case Op::Cond:
        if (imm(a)) return val(a) ? b : c;
        break;
      case Op::RegionId: {
        if (!(n.k[0] < 0 || imm(n.k[0])) || !(n.k[1] < 0 || imm(n.k[1]))) break;
        const VarInfo& t = p_.region_tables[n.a];
        int64_t off = 0;
        for (size_t d = 0; d < t.dims.size(); ++d) {
          int64_t i = val(n.k[d]) - t.lows[d];
          if (i < 0 || i >= t.dims[d]) return idx;  // out of range: the runtime reports it
          off = off * t.dims[d] + i;
        }
        return make_imm(idx, t.base + off);
      }
      case Op::RegionSite:
        if (imm(a) && imm(b) && val(a) >= 0 && val(a) < static_cast<int64_t>(p_.regions.size())) {
          const auto& r = p_.regions[val(a)];
          if (val(b) >= 0 && val(b) < static_cast<int64_t>(r.size())) return make_imm(idx, r[val(b)]);
        }
        break;
      case Op::ConstGet: {
        const VarInfo& t = p_.const_tables[n.a];
        int64_t off = 0;
        for (size_t d = 0; d < t.dims.size(); ++d) {
          if (!imm(n.k[d])) return idx;
          int64_t i = val(n.k[d]) - t.lows[d];
          if (i < 0 || i >= t.dims[d]) return idx;
          off = off * t.dims[d] + i;
        }
        return make_imm(idx, p_.consts[t.base + off]);
      }
      case Op::AggSum:
      case Op::AggCount:
      case Op::AggAny:
      case Op::AggAll:
      case Op::AggMin:
      case Op::AggMax: {
        // An aggregate writes nothing while it runs (unless its body calls a writer): index it.
        std::vector<int8_t> memo(p_.callables.size(), -1);
        const int stop = n.k[kLoopWhile];
        if (writes(n.k[1], memo) || writes(n.k[2], memo) || writes(stop, memo)) break;
        if (takes_from_collection(n.k[1]) || takes_from_collection(n.k[2]) || takes_from_collection(stop)) break;
        // A loop that stops early reads its domain in order and whole: no index or kept count.
        if (stop >= 0) break;
        // A count the engine can keep needs no loop at all (compile/facts.cpp).
        if (int fact = keep_fact(p_, idx); fact != idx) return fact;
        int dom = n.k[0], filter = n.k[2];
        rewrite_domain(p_, dom, filter, n.a);
        p_.code[idx].k[0] = dom;
        p_.code[idx].k[2] = filter;
        break;
      }
      case Op::Builtin:
        if (static_cast<lang::Builtin>(n.a) == lang::Builtin::size && imm(a) && val(a) >= 0 &&
            val(a) < static_cast<int64_t>(p_.regions.size()))
          return make_imm(idx, static_cast<int64_t>(p_.regions[val(a)].size()));
        break;
      default: break;
    }
    return idx;
  }

  int size_of(int idx, int limit) const {
    if (idx < 0 || limit <= 0) return 0;
    const Node& n = p_.code[idx];
    int s = 1;
    for (int i = 0; i < kNodeKids && s <= limit; ++i) s += size_of(n.k[i], limit - s);
    if (n.op == Op::Call)
      for (int i = 0; i < n.c && s <= limit; ++i) s += size_of(p_.args[n.b + i], limit - s);
    return s;
  }

  int inline_call(int idx) {
    const Node n = p_.code[idx];
    // A declared fact is read from the slots the engine keeps, its arguments (at most
    // kMaxTableDims) moved into the node's kids so that every walk of the tree sees them.
    for (size_t f = 0; f < p_.facts.size(); ++f)
      if (p_.facts[f].kind == FactKind::Tally && p_.facts[f].def == n.a) {
        Node& get = p_.code[idx];
        get.op = Op::FactGet;
        get.a = static_cast<int32_t>(f);
        get.aux = static_cast<uint8_t>(FactRead::Tally);
        for (int i = 0; i < kNodeKids; ++i) get.k[i] = i < n.c ? p_.args[n.b + i] : -1;
        get.b = get.c = 0;
        return idx;
      }
    const Callable& cl = p_.callables[n.a];
    if (!cl.is_expr || cl.body < 0 || n.c != static_cast<int>(cl.params.size())) return idx;
    for (int i = 0; i < n.c; ++i)
      if (!cheap(p_.args[n.b + i])) return idx;
    // Bodies with a loop or a call stay calls: those are remembered while moves are generated.
    if (has_work(cl.body) || size_of(cl.body, lang::kMaxInlineNodes + 1) > lang::kMaxInlineNodes) return idx;
    std::vector<std::pair<int, int>> subst;  // parameter slot -> argument node
    for (int i = 0; i < n.c; ++i) subst.emplace_back(cl.params[i], p_.args[n.b + i]);
    int copy = clone(cl.body, subst, idx);
    return fold_tree(copy);
  }

  // Copies an expression tree, reading each parameter slot as its argument node (shared).
  int clone(int idx, const std::vector<std::pair<int, int>>& subst, int span_of) {
    if (idx < 0) return idx;
    const Node n = p_.code[idx];
    if (n.op == Op::Local)
      for (auto& [slot, arg] : subst)
        if (slot == n.a) return arg;
    int copy = new_node(n.op, idx);
    Node m = n;
    for (int i = 0; i < kNodeKids; ++i) m.k[i] = clone(n.k[i], subst, span_of);
    if (n.op == Op::Call) {
      std::vector<int> a;
      for (int i = 0; i < n.c; ++i) {
        int arg = p_.args[n.b + i];
        a.push_back(clone(arg, subst, span_of));
      }
      m.b = static_cast<int>(p_.args.size());
      p_.args.insert(p_.args.end(), a.begin(), a.end());
    }
    p_.code[copy] = m;
    return copy;
  }

  // Folds a freshly inlined tree bottom-up (its calls were already inlined where they could be).
  int fold_tree(int idx) {
    if (idx < 0) return idx;
    for (int i = 0; i < kNodeKids; ++i)
      if (p_.code[idx].k[i] >= 0) {
        int k = fold_tree(p_.code[idx].k[i]);
        p_.code[idx].k[i] = k;
      }
    if (p_.code[idx].op == Op::Call) return inline_call(idx);
    return fold(idx);
  }

  // Callables worth remembering while moves are generated: they write no state, take at most
  // three arguments, and do more than a handful of steps (a loop, an aggregate, a call or a
  // larger body); a tiny one costs less to run than to look up.
  void mark_memo() {
    std::vector<int8_t> memo(p_.callables.size(), -1);
    for (size_t c = 0; c < p_.callables.size(); ++c) {
      Callable& cl = p_.callables[c];
      if (cl.body < 0 || static_cast<int>(cl.params.size()) > lang::kMaxMemoArgs || writes(cl.body, memo)) continue;
      cl.memo = !cl.is_expr || has_work(cl.body) || size_of(cl.body, 13) > 12;
    }
  }

  bool has_work(int idx) const {
    if (idx < 0) return false;
    const Node& n = p_.code[idx];
    if ((n.op >= Op::AggSum && n.op <= Op::AggMax) || n.op == Op::Call) return true;
    for (int i = 0; i < kNodeKids; ++i)
      if (has_work(n.k[i])) return true;
    return false;
  }

  // Whether any guard or filter of a move rule can write the state (through the calls it makes).
  // Expression nodes have no `next`, so following it walks statement chains only.
  bool writes(int idx, std::vector<int8_t>& memo) const {
    for (; idx >= 0; idx = p_.code[idx].next) {
      const Node& n = p_.code[idx];
      switch (n.op) {
        case Op::StateSet:
        case Op::SetMover:
        case Op::SetPhase:
        case Op::Emit:
        case Op::Finish:
        case Op::EndGame: return true;
        case Op::Call:
        case Op::CallStmt:
          if (memo[n.a] < 0) memo[n.a] = writes(p_.callables[n.a].body, memo) ? 1 : 0;
          if (memo[n.a]) return true;
          for (int i = 0; i < n.c; ++i)
            if (writes(p_.args[n.b + i], memo)) return true;
          break;
        default: break;
      }
      for (int i = 0; i < kNodeKids; ++i)
        if (writes(n.k[i], memo)) return true;
      if (n.op == Op::ConstSet && writes(n.d, memo)) return true;
    }
    return false;
  }

  bool guards_write() const {
    std::vector<int8_t> memo(p_.callables.size(), -1);
    for (const Rule& r : p_.rules) {
      if (writes(r.guard, memo)) return true;
      for (const RuleParam& prm : r.params)
        if (writes(prm.domain, memo) || writes(prm.filter, memo) || writes(prm.distinct, memo)) return true;
    }
    return false;
  }

  std::vector<bool> done_;
};

}  // namespace

void optimize(Program& p) { Optimizer(p).run(); }

}  // namespace keli::compile
