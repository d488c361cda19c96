// The checker on calls: each call typed against what it calls, the call graph recorded, then
// the checks over that graph (no recursion; no play-time state while the board is built).
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "check/checker_impl.hpp"
#include "lang/limits.hpp"

namespace keli::check {

namespace {
// A default as a call passes it: a copy of the literal (a number, -number, true or false) at the
// default's place, so that an error in it points at the declaration.
ast::ExprPtr copy_literal(const Expr& x) {
  auto out = std::make_unique<Expr>();
  out->kind = x.kind;
  out->span = x.span;
  out->text = x.text;
  out->value = x.value;
  out->op = x.op;
  out->depth = x.depth;
  for (const auto& k : x.kids) out->kids.push_back(copy_literal(*k));
  return out;
}

bool is_literal(const Expr& x) {
  if (x.kind == ExprKind::Int || x.kind == ExprKind::Bool) return true;
  return x.kind == ExprKind::Neg && x.kids.size() == 1 && x.kids[0]->kind == ExprKind::Int;
}
}  // namespace

void Checker::check_default(const ast::Formal& f, Type t) {
  if (!is_literal(*f.fallback)) {
    diags_.report(Code::not_constant, f.fallback->span,
                  fmt::format("the default of '{}' must be a literal: a number, true or false", f.name),
                  "a default is written once and passed by every call that leaves the parameter out");
    f.fallback->type = Type::Error;
    return;
  }
  Type got = f.fallback->kind == ExprKind::Bool ? Type::Bool : Type::Int;
  if (t != Type::Error && !compatible(t, got)) {
    mismatch(
        *f.fallback, t, got,
        fmt::format("the default of '{}' must be {}, but this is {}", f.name, ast::type_name(t), ast::type_name(got)));
    f.fallback->type = Type::Error;
    return;
  }
  f.fallback->type = got;
}

void Checker::fill_defaults(Expr& call, const ast::Decl& d) {
  for (size_t i = call.kids.size() - 1; i < d.formals.size(); ++i) {
    const auto& fb = d.formals[i].fallback;
    if (!fb || fb->type == Type::Error) return;  // no default: the arity check says so
    call.kids.push_back(copy_literal(*fb));
  }
}

Type Checker::check_call(Expr& e, bool as_statement) {
  Expr& callee = *e.kids[0];
  auto check_args = [&](const std::vector<Type>& types, const std::string& what) {
    const size_t nargs = e.kids.size() - 1;
    if (types.size() != nargs)
      diags_.report(
          Code::wrong_arity, e.span,
          fmt::format("{} takes {}, but {} given", what, count_of(types.size(), "argument"), count_is(nargs)));
    for (size_t i = 0; i < nargs; ++i) {
      Type t = i < types.size() ? types[i] : Type::Error;
      Type got = expr(*e.kids[i + 1], t);
      if (!compatible(t, got))
        mismatch(*e.kids[i + 1], t, got,
                 fmt::format("argument {} of {} must be {}, but this is {}", i + 1, what, ast::type_name(t),
                             ast::type_name(got)));
    }
  };
  if (callee.kind != ExprKind::Name) {
    diags_.report(Code::not_callable, e.span, "only functions and shapes can be called");
    return Type::Error;
  }
  if (Type t; collection_call(e, t)) return t;
  int g = c_.lookup(callee.text);
  if (g >= 0 && (c_.syms[g].kind == SymKind::Def || c_.syms[g].kind == SymKind::Shape)) {
    Symbol& s = c_.syms[g];
    s.used = true;
    e.sym = g;
    fill_defaults(e, *s.decl);
    std::vector<Type> types;
    for (auto& f : s.decl->formals) types.push_back(type_from_name(f.type));
    check_args(types, fmt::format("'{}'", callee.text));
    if (s.kind == SymKind::Shape) {
      if (where_ != Where::Build) misplaced(callee.span, fmt::format("shape '{}'", callee.text), Where::Build);
      if (!as_statement) diags_.report(Code::type_mismatch, e.span, "a shape builds sites and gives no value");
    }
    if (owner_) {
      calls_.emplace_back(owner_, s.decl, e.span);
      supposed_calls_.push_back(supposing_ > 0);
    }
    if (!as_statement && s.type == Type::Void)
      diags_.report(Code::type_mismatch, e.span, fmt::format("'{}' gives no value", callee.text),
                    "declare a result type, 'def f(...): int', and return a value");
    return s.type;
  }
  int b = find_builtin(callee.text);
  if (b >= 0 && g < 0 && !builtin_here(callee.text)) {
    needs_directions(callee.span, fmt::format("'{}'", callee.text));
    for (size_t i = 1; i < e.kids.size(); ++i)
      if (!names_table(*e.kids[i])) expr(*e.kids[i]);  // a search's table is named, not read
    return Type::Error;
  }
  if (b >= 0 && g < 0) {
    const auto& info = builtin_info(static_cast<Builtin>(b));
    e.ref = b;
    if (lang::is_search(static_cast<Builtin>(b))) {
      Type t = search_call(e);
      if (as_statement)
        diags_.report(Code::type_mismatch, e.span,
                      fmt::format("'{}(...)' gives sites to range over, not a statement", callee.text),
                      fmt::format("loop over it: 'for t in {}(...) {{ ... }}', or count it", callee.text));
      return t;
    }
    std::vector<Type> types(info.args, info.args + info.arity);
    check_args(types, fmt::format("'{}'", callee.text));
    if (info.where == Where::Build && where_ != Where::Build)
      misplaced(callee.span, fmt::format("'{}(...)'", callee.text), Where::Build);
    if (info.where == Where::Play) needs_play(callee.span, fmt::format("'{}(...)'", callee.text));
    return info.result;
  }
  if (g >= 0) {
    diags_.report(
        Code::not_callable, callee.span,
        fmt::format("'{}' is {}, not a function", callee.text, sym_kind_name(c_.syms[g].kind)),
        c_.syms[g].kind == SymKind::Event ? fmt::format("raise an event with 'emit {}(...)'", callee.text) : "");
  } else if (!broken(callee.text)) {
    std::vector<std::string> cands;
    for (auto* d : c_.defs) cands.push_back(d->name);
    for (auto* d : c_.shapes) cands.push_back(d->name);
    for (int i = 0; i < static_cast<int>(Builtin::count_); ++i)
      cands.push_back(builtin_info(static_cast<Builtin>(i)).name);
    diags_.report(Code::unknown_name, callee.span, fmt::format("unknown function '{}'", callee.text),
                  diag::suggest(callee.text, cands));
  }
  for (size_t i = 1; i < e.kids.size(); ++i) expr(*e.kids[i]);
  return Type::Error;
}

namespace {

using Graph = std::map<ast::Decl*, std::vector<std::pair<ast::Decl*, Span>>>;

// Visits each node of `graph` once its callees are done (`done`), telling `back` of every call
// into a node still on the path (a cycle, with that path). Iterative: a chain of calls may be as
// long as the file, and must not recurse the checker past its stack.
template <typename Done, typename Back>
void post_order(Graph& graph, Done done, Back back) {
  std::map<ast::Decl*, int> state;  // 0 new, 1 on the path, 2 done
  std::vector<ast::Decl*> path;
  std::vector<size_t> next;  // per node of the path: its next call to follow
  std::vector<ast::Decl*> roots;
  for (auto& [d, _] : graph) roots.push_back(d);
  for (ast::Decl* root : roots) {
    if (state[root] != 0) continue;
    state[root] = 1;
    path.push_back(root);
    next.push_back(0);
    while (!path.empty()) {
      ast::Decl* d = path.back();
      const auto& edges = graph[d];
      if (next.back() < edges.size()) {
        auto [to, span] = edges[next.back()++];
        if (state[to] == 1) {
          back(path, to, span);
        } else if (state[to] == 0) {
          state[to] = 1;
          path.push_back(to);
          next.push_back(0);
        }
        continue;
      }
      state[d] = 2;
      done(d, edges);
      path.pop_back();
      next.pop_back();
    }
  }
}

// For each function, the first of `direct`'s entries it reaches: its own, else the first that the
// functions it calls reach, in the order of its calls; null when it reaches none. Recursion is its
// own error (check_recursion): a cycle is cut where it closes.
template <typename T>
std::map<ast::Decl*, const T*> first_reached(const std::vector<std::tuple<ast::Decl*, ast::Decl*, Span>>& calls,
                                             const std::map<ast::Decl*, T>& direct) {
  Graph graph;
  for (auto& [from, to, span] : calls)
    if (to->kind == DeclKind::Def) graph[from].push_back({to, span});
  for (auto& [d, _] : direct) graph[d];  // a function that calls none (or nobody calls) is a node too
  std::map<ast::Decl*, const T*> reached;
  post_order(
      graph,
      [&](ast::Decl* d, const std::vector<std::pair<ast::Decl*, Span>>& edges) {
        auto it = direct.find(d);
        const T* u = it != direct.end() ? &it->second : nullptr;
        for (size_t i = 0; i < edges.size() && !u; ++i) u = reached[edges[i].first];
        reached[d] = u;
      },
      [](const std::vector<ast::Decl*>&, ast::Decl*, Span) {});
  return reached;
}

bool counts_as_call(const ast::Decl* d) {  // what the engines count against kMaxCallDepth
  return d->kind == DeclKind::Def || d->kind == DeclKind::Shape || d->kind == DeclKind::On;
}

}  // namespace

// A function called while the board is built must not need the game's state, directly or
// through the functions it calls.
void Checker::check_build_calls() {
  auto uses = first_reached(calls_, play_use_);  // the play-time use each function reaches
  for (auto& [from, to, span] : calls_) {
    bool build = from == c_.board || from->kind == DeclKind::Shape;
    if (!build || to->kind != DeclKind::Def) continue;
    if (auto* u = uses[to])
      diags_.report(Code::misplaced, span,
                    fmt::format("'{}' cannot be called while building the board: it uses {}", to->name, u->second),
                    fmt::format("{} is used at {}; the board is built before play", u->second, src_.where(u->first)));
  }
}

// `roll` outside a chance body: an error, except in a function, which may read it if it is
// called only from chance bodies, directly or through other functions (check_roll_calls).
void Checker::roll_outside_chance(Span span) {
  if (where_ == Where::Any && owner_ && owner_->kind == DeclKind::Def) {
    roll_use_.emplace(owner_, span);  // the first read is the one a diagnostic names
    return;
  }
  diags_.report(Code::misplaced, span, "'roll' exists only in a chance phase",
                "throw dice with 'phase NAME chance DICE { ... }'");
}

// A function that reads `roll` (directly or through the functions it calls) runs only where the
// dice have just been thrown: a chance phase's body, or another such function. Anywhere else,
// and for the computer players (the `ai` block), the call is an error.
void Checker::check_roll_calls() {
  if (roll_use_.empty()) return;
  auto reads = first_reached(calls_, roll_use_);  // the read of roll each function reaches
  const std::string hint_text = "throw dice with 'phase NAME chance DICE { ... }' and call it from there";
  for (auto& [from, to, span] : calls_) {
    if (to->kind != DeclKind::Def || from->kind == DeclKind::Def) continue;
    if (from->kind == DeclKind::Phase && from->value) continue;  // a chance body
    if (const Span* u = reads[to])
      diags_.report(
          Code::misplaced, span,
          fmt::format("'{}' reads 'roll' (at {}), which exists only in a chance phase", to->name, src_.where(*u)),
          hint_text);
  }
  std::set<const Span*> told;  // each read once, named by the first definition of the block reaching it
  for (ast::Decl* d : c_.defs) {
    const Span* u = reads[d];
    if (u && d->for_ai && told.insert(u).second)
      diags_.report(Code::misplaced, *u,
                    fmt::format("'roll' exists only in a chance phase, and '{}' is in the 'ai' block, which the "
                                "computer players call between throws",
                                d->name),
                    "read the dice in hand (a variable the chance body sets) instead");
  }
}

// ---- recursion and the depth of calls -----------------------------------------------------------

void Checker::check_recursion() {
  // Handlers run when their event is emitted: an emit is a call of every handler of that event.
  Graph graph;
  for (auto& [from, to, span] : calls_) {
    if (to->kind == DeclKind::Event) {
      for (auto* h : c_.handlers)
        if (h->sym == to->sym) graph[from].push_back({h, span});
    } else {
      graph[from].push_back({to, span});
    }
  }
  auto shown = [](const ast::Decl* d) { return d->kind == DeclKind::On ? "on " + d->name : d->name; };
  std::set<ast::Decl*> reported;
  std::map<ast::Decl*, std::pair<int, ast::Decl*>> chain;  // the longest chain of calls from here
  post_order(
      graph,
      [&](ast::Decl* d, const std::vector<std::pair<ast::Decl*, Span>>& edges) {
        std::pair<int, ast::Decl*> best{0, nullptr};
        for (auto& [to, span] : edges)
          if (chain[to].first > best.first) best = {chain[to].first, to};
        chain[d] = {best.first + (counts_as_call(d) ? 1 : 0), best.second};
      },
      [&](const std::vector<ast::Decl*>& path, ast::Decl* to, Span span) {
        if (!reported.insert(to).second) return;
        std::vector<std::string> cycle;
        for (auto it = std::find(path.begin(), path.end(), to); it != path.end(); ++it) cycle.push_back(shown(*it));
        cycle.push_back(shown(to));
        diags_.report(Code::recursion, span, fmt::format("'{}' calls itself: {}", to->name, fmt::join(cycle, " -> ")),
                      "Keli functions may not recurse; use a 'while' loop");
      });
  if (!reported.empty()) return;
  // The engines stop a chain of calls deeper than kMaxCallDepth in play. The longest chain the
  // text allows is bounded here instead, once, where it starts: then every later walk over calls
  // (the optimizer's inlining, the native emitter) is bounded too.
  ast::Decl* top = nullptr;
  for (auto& [d, c] : chain)
    if (counts_as_call(d) && c.first > lang::kMaxCallDepth && (!top || c.first > chain[top].first)) top = d;
  if (!top) return;
  std::vector<std::string> names;
  for (ast::Decl* d = top; d && names.size() < 4; d = chain[d].second) names.push_back("'" + shown(d) + "'");
  diags_.report(Code::too_deep, top->name_span,
                fmt::format("calls can nest {} deep from '{}' ({} ...), more than the {} the engines allow "
                            "(kMaxCallDepth)",
                            chain[top].first, shown(top), fmt::join(names, " -> "), lang::kMaxCallDepth),
                "compute part of the chain in one function, or loop with 'while' instead of calling on");
}

}  // namespace keli::check
