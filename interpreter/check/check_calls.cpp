// The checker on calls: each call typed against what it calls, the call graph recorded, then
// the checks over that graph (no recursion; no play-time state while the board is built).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "check/checker_impl.hpp"

namespace keli::check {

Type Checker::check_call(Expr& e, bool as_statement) {
  Expr& callee = *e.kids[0];
  size_t nargs = e.kids.size() - 1;
  auto check_args = [&](const std::vector<Type>& types, const std::string& what) {
    if (types.size() != nargs)
      diags_.report(
          Code::wrong_arity, e.span,
          fmt::format("{} takes {}, but {} given", what, count_of(types.size(), "argument"), count_is(nargs)));
    for (size_t i = 0; i < nargs; ++i) {
      Type t = i < types.size() ? types[i] : Type::Error;
      Type got = expr(*e.kids[i + 1], t);
      if (!compatible(t, got))
        diags_.report(Code::type_mismatch, e.kids[i + 1]->span,
                      fmt::format("argument {} of {} must be {}, but this is {}", i + 1, what, ast::type_name(t),
                                  ast::type_name(got)));
    }
  };
  if (callee.kind != ExprKind::Name) {
    diags_.report(Code::not_callable, e.span, "only functions and shapes can be called");
    return Type::Error;
  }
  int g = c_.lookup(callee.text);
  if (g >= 0 && (c_.syms[g].kind == SymKind::Def || c_.syms[g].kind == SymKind::Shape)) {
    Symbol& s = c_.syms[g];
    s.used = true;
    e.sym = g;
    std::vector<Type> types;
    for (auto& f : s.decl->formals) types.push_back(type_from_name(f.type));
    check_args(types, fmt::format("'{}'", callee.text));
    if (s.kind == SymKind::Shape) {
      if (where_ != Where::Build) misplaced(callee.span, fmt::format("shape '{}'", callee.text), Where::Build);
      if (!as_statement) diags_.report(Code::type_mismatch, e.span, "a shape builds sites and gives no value");
    }
    if (owner_) calls_.emplace_back(owner_, s.decl, e.span);
    if (!as_statement && s.type == Type::Void)
      diags_.report(Code::type_mismatch, e.span, fmt::format("'{}' gives no value", callee.text),
                    "declare a result type, 'def f(...): int', and return a value");
    return s.type;
  }
  int b = find_builtin(callee.text);
  if (b >= 0 && g < 0) {
    const auto& info = builtin_info(static_cast<Builtin>(b));
    e.ref = b;
    std::vector<Type> types(info.args, info.args + info.arity);
    check_args(types, fmt::format("'{}'", callee.text));
    if (info.where == Where::Build && where_ != Where::Build)
      misplaced(callee.span, fmt::format("'{}(...)'", callee.text), Where::Build);
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
  for (size_t i = 0; i < nargs; ++i) expr(*e.kids[i + 1]);
  return Type::Error;
}

// A function called while the board is built must not need the game's state, directly or
// through the functions it calls.
void Checker::check_build_calls() {
  std::function<const std::pair<Span, std::string>*(ast::Decl*, std::set<ast::Decl*>&)> uses =
      [&](ast::Decl* d, std::set<ast::Decl*>& seen) -> const std::pair<Span, std::string>* {
    if (!seen.insert(d).second) return nullptr;
    auto it = play_use_.find(d);
    if (it != play_use_.end()) return &it->second;
    for (auto& [from, to, span] : calls_)
      if (from == d && to->kind == DeclKind::Def)
        if (auto* u = uses(to, seen)) return u;
    return nullptr;
  };
  for (auto& [from, to, span] : calls_) {
    bool build = from == c_.board || from->kind == DeclKind::Shape;
    if (!build || to->kind != DeclKind::Def) continue;
    std::set<ast::Decl*> seen;
    if (auto* u = uses(to, seen))
      diags_.report(Code::misplaced, span,
                    fmt::format("'{}' cannot be called while building the board: it uses {}", to->name, u->second),
                    fmt::format("{} is used at {}; the board is built before play", u->second, src_.where(u->first)));
  }
}

// ---- recursion ----------------------------------------------------------------------------------

void Checker::check_recursion() {
  // Handlers run when their event is emitted: an emit is a call of every handler of that event.
  std::map<ast::Decl*, std::vector<std::pair<ast::Decl*, Span>>> graph;
  for (auto& [from, to, span] : calls_) {
    if (to->kind == DeclKind::Event) {
      for (auto* h : c_.handlers)
        if (h->sym == to->sym) graph[from].push_back({h, span});
    } else {
      graph[from].push_back({to, span});
    }
  }
  std::map<ast::Decl*, int> state;  // 0 new, 1 on the path, 2 done
  std::vector<ast::Decl*> path;
  std::set<ast::Decl*> reported;
  std::function<void(ast::Decl*)> visit = [&](ast::Decl* d) {
    state[d] = 1;
    path.push_back(d);
    for (auto& [to, span] : graph[d]) {
      if (state[to] == 1) {
        if (reported.insert(to).second) {
          std::vector<std::string> cycle;
          auto it = std::find(path.begin(), path.end(), to);
          for (; it != path.end(); ++it)
            cycle.push_back((*it)->kind == DeclKind::On ? "on " + (*it)->name : (*it)->name);
          cycle.push_back(to->kind == DeclKind::On ? "on " + to->name : to->name);
          diags_.report(Code::recursion, span, fmt::format("'{}' calls itself: {}", to->name, fmt::join(cycle, " -> ")),
                        "Keli functions may not recurse; use a 'while' loop");
        }
      } else if (state[to] == 0) {
        visit(to);
      }
    }
    path.pop_back();
    state[d] = 2;
  };
  for (auto& [d, _] : graph)
    if (state[d] == 0) visit(d);
}

}  // namespace keli::check
