// The checker's pass over statements: one function per kind of statement, and assignment.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

// ---- statements ---------------------------------------------------------------------------------

void Checker::block(ast::Block& b) {
  size_t mark = scope_.size();
  for (auto& s : b) stmt(*s);
  scope_.resize(mark);
}

void Checker::stmt(Stmt& s) {
  if (owner_ && !supposing_ && (s.kind == StmtKind::Emit || s.kind == StmtKind::Finish || s.kind == StmtKind::EndGame))
    changes_.try_emplace(owner_, s.span,
                         s.kind == StmtKind::Emit     ? "'emit'"
                         : s.kind == StmtKind::Finish ? "'finish'"
                                                      : "'end_game'");
  switch (s.kind) {
    case StmtKind::Let: let_statement(s); break;
    case StmtKind::Assign: assign(s); break;
    case StmtKind::If: if_statement(s); break;
    case StmtKind::While: while_statement(s); break;
    case StmtKind::For: for_statement(s); break;
    case StmtKind::Return: return_statement(s); break;
    case StmtKind::Emit: emit_statement(s); break;
    case StmtKind::Note: needs_play(s.span, "'note'"); break;
    case StmtKind::Add: add_statement(s); break;
    case StmtKind::Remove: remove_statement(s); break;
    case StmtKind::Clear: clear_statement(s); break;
    case StmtKind::Suppose: suppose_statement(s); break;
    case StmtKind::Finish: finish_statement(s); break;
    case StmtKind::EndGame: end_game_statement(s); break;
    case StmtKind::Call: check_call(*s.exprs[0], true); break;
  }
}

void Checker::let_statement(Stmt& s) {
  if (s.coll != lang::CollKind::None) return let_collection(s);
  Type t = expr(*s.exprs[0]);
  if (t == Type::None)
    diags_.report(Code::type_mismatch, s.exprs[0]->span, fmt::format("'{}' needs a type to hold none", s.name),
                  "keep none in a 'site or none' table or result, or give the local a value that may be none");
  bool reported = t == Type::Void && s.exprs[0]->kind == ExprKind::Call;  // "gives no value" already said
  if ((t == Type::Void && !reported) || t == Type::Domain || t == Type::Dice)
    diags_.report(Code::type_mismatch, s.exprs[0]->span, fmt::format("a local cannot hold {}", ast::type_name(t)));
  s.slot = declare(s.name, t, s.exprs[0]->enum_id, s.name_span);
}

// A loop's condition and body see the narrowing of what they test, not of locals the body writes.
void Checker::while_statement(Stmt& s) {
  std::set<int> saved = narrowed_;
  size_t mark = assigned_.size();
  unnarrow_assigned(s.blocks[0]);
  want_type(*s.exprs[0], Type::Bool, "the condition of 'while'");
  narrow(*s.exprs[0], true);
  block(s.blocks[0]);
  restore(saved, mark);
}

// `suppose { ... }` reads and writes the game as play does, then gives it back: while the board is
// built there is no game to give back. What it narrows of the state holds again after it; a local
// it assigns keeps the value, so loses its narrowing. What it changes does not count as a change
// of the position (an `ai` definition may look ahead).
void Checker::suppose_statement(Stmt& s) {
  needs_play(s.span, "'suppose'");
  std::set<int> saved = narrowed_;
  size_t mark = assigned_.size();
  ++supposing_;
  block(s.blocks[0]);
  --supposing_;
  restore(saved, mark);
}

void Checker::loop_conditions(Expr* stop, Expr* filter) {
  if (stop) {
    want_type(*stop, Type::Bool, "a loop's 'while' condition");
    narrow(*stop, true);  // the filter and the body are read only while it holds
  }
  if (filter) {
    want_type(*filter, Type::Bool, "a 'where' filter");
    narrow(*filter, true);
  }
}

void Checker::for_statement(Stmt& s) {
  size_t mark = scope_.size();
  Type elem = domain(*s.exprs[0]);
  s.slot = declare(s.name, elem, -1, s.name_span);
  std::set<int> saved = narrowed_;
  size_t assigned_mark = assigned_.size();
  unnarrow_assigned(s.blocks[0]);
  iterate(*s.exprs[0], true);
  loop_conditions(ast::loop_while(s), ast::loop_filter(s));
  block(s.blocks[0]);
  iterate(*s.exprs[0], false);
  restore(saved, assigned_mark);
  scope_.resize(mark);
}

void Checker::return_statement(Stmt& s) {
  if (!in_def_) {  // a move, a throw, a handler, setup or the board: `return` alone ends it here
    if (!s.exprs.empty()) {
      expr(*s.exprs[0]);
      diags_.report(Code::misplaced, s.exprs[0]->span,
                    "only a function ('def') returns a value: here 'return' alone ends the body",
                    "write 'return' with no value, or compute the value in a 'def'");
    }
  } else if (s.exprs.empty()) {
    if (result_ != Type::Void && result_ != Type::Error)
      diags_.report(Code::type_mismatch, s.span, fmt::format("this function must return {}", ast::type_name(result_)));
  } else {
    Type t = expr(*s.exprs[0], result_);
    if (result_ == Type::Void)
      diags_.report(Code::type_mismatch, s.exprs[0]->span,
                    "this function declares no result type, so 'return' takes no value");
    else if (!compatible(result_, t))
      mismatch(*s.exprs[0], result_, t,
               fmt::format("this function returns {}, but this is {}", ast::type_name(result_), ast::type_name(t)));
  }
}

void Checker::emit_statement(Stmt& s) {
  needs_play(s.span, "'emit'");
  Expr& call = *s.exprs[0];
  int g = c_.lookup(s.name);
  if (g < 0 || c_.syms[g].kind != SymKind::Event) {
    std::vector<std::string> evs;
    for (auto* x : c_.events) evs.push_back(x->name);
    std::string hint = diag::suggest(s.name, evs);
    if (hint.empty()) hint = evs.empty() ? "no events are declared" : fmt::format("events: {}", fmt::join(evs, ", "));
    if (g < 0 && broken(s.name)) {
      // the event's declaration did not parse: already reported
    } else if (g >= 0)
      diags_.report(Code::unknown_event, s.name_span,
                    fmt::format("'{}' is {}, not an event", s.name, sym_kind_name(c_.syms[g].kind)),
                    c_.syms[g].kind == SymKind::Def ? fmt::format("call it: {}(...)", s.name) : hint);
    else
      diags_.report(Code::unknown_event, s.name_span, fmt::format("unknown event '{}'", s.name), hint);
    for (size_t i = 1; i < call.kids.size(); ++i) expr(*call.kids[i]);
    return;
  }
  s.sym = g;
  c_.syms[g].used = true;
  ast::Decl* ev = c_.syms[g].decl;
  fill_defaults(call, *ev);
  if (ev->formals.size() != call.kids.size() - 1)
    diags_.report(Code::wrong_arity, call.span,
                  fmt::format("event '{}' takes {}, but {} given", s.name, count_of(ev->formals.size(), "argument"),
                              count_is(call.kids.size() - 1)));
  for (size_t i = 1; i < call.kids.size(); ++i) {
    Type t = i - 1 < ev->formals.size() ? type_from_name(ev->formals[i - 1].type) : Type::Error;
    want_type(*call.kids[i], t, "an event argument");
  }
  if (owner_) {
    calls_.emplace_back(owner_, ev, s.span);
    supposed_calls_.push_back(supposing_ > 0);
  }
}

void Checker::finish_statement(Stmt& s) {
  needs_play(s.span, "'finish'");
  for (auto& p : s.exprs) want_type(*p, Type::Player, "'finish'");
}

// `end_game by NAME points NAME`: each NAME gives a number per player (a var per player or a def
// of a player): `by` ranks the seats not yet placed, `points` is what each seat scores.
void Checker::end_game_statement(Stmt& s) {
  needs_play(s.span, "'end_game'");
  if (!s.name.empty()) s.sym = number_per_player(s.name, s.name_span, "by");
  if (!s.points.empty()) {
    s.points_sym = number_per_player(s.points, s.points_span, "points");
    if (!c_.scores_points) c_.points_at = s.points_span;
    c_.scores_points = true;
  }
}

int Checker::number_per_player(const std::string& name, const Span& at, const char* clause) {
  int g = c_.lookup(name);
  bool ok = false;
  if (g >= 0) {
    Symbol& sym = c_.syms[g];
    sym.used = true;
    if (sym.kind == SymKind::Var && sym.decl->dims.size() == 1 && sym.decl->dims[0].type == "player" &&
        ast::is_number(sym.type))
      ok = true;
    if (sym.kind == SymKind::Def && sym.decl->formals.size() == 1 && sym.decl->formals[0].type == "player" &&
        ast::is_number(sym.type))
      ok = true;
  }
  if (!ok && !(g < 0 && broken(name)))
    diags_.report(g < 0 ? Code::unknown_name : Code::type_mismatch, at,
                  g < 0 ? fmt::format("unknown name '{}'", name)
                        : fmt::format("'end_game {}' needs a number per player, and '{}' is not one", clause, name),
                  g < 0 ? diag::suggest(name, global_names())
                        : "use a 'var NAME: int per player' or a 'def NAME(p: player): int'");
  return ok ? g : -1;
}

void Checker::assign(Stmt& s) {
  Expr& target = *s.exprs[0];
  Expr& value = *s.exprs[1];
  Type t = Type::Error;
  int enum_id = -1;
  Expr* root = &target;
  while (root->kind == ExprKind::Index) root = root->kids[0].get();
  bool writable = false;
  if (root->kind == ExprKind::Name) {
    const Local* l = find_local(root->text);
    int g = l ? -1 : c_.lookup(root->text);
    int b = (l || g >= 0) ? -1 : find_builtin_var(root->text);
    if (l && lang::is_collection(l->type)) {
      diags_.report(Code::not_assignable, target.span,
                    fmt::format("cannot assign to '{}': it is {}, changed only by add, remove and clear", root->text,
                                ast::type_name(l->type)),
                    collection_hint());
      l = nullptr;
      expr(value);
      return;
    } else if (l) {
      writable = &target == root;
      if (!writable)
        diags_.report(
            Code::not_assignable, target.span,
            fmt::format("cannot assign into '{}': a region or track does not change during play", root->text));
    } else if (g >= 0) {
      SymKind k = c_.syms[g].kind;
      c_.syms[g].used = true;
      writable = k == SymKind::Var || (k == SymKind::Const && where_ == Where::Build);
      if (k == SymKind::Const && where_ != Where::Build && !writable)
        diags_.report(Code::not_assignable, target.span,
                      fmt::format("constant '{}' can only be set while building the board", root->text),
                      "declare it with 'var' if it changes during play");
      else if (!writable)
        diags_.report(Code::not_assignable, target.span,
                      fmt::format("cannot assign to {} '{}'", sym_kind_name(k), root->text));
    } else if (b >= 0) {
      writable = builtin_var_info(static_cast<BuiltinVar>(b)).writable;
      if (!writable) diags_.report(Code::not_assignable, target.span, fmt::format("'{}' is read-only", root->text));
    } else {
      expr(target);  // reports the unknown name, with a suggestion
    }
  } else {
    diags_.report(Code::not_assignable, target.span, "cannot assign to this expression");
  }
  if (writable) {
    const Local* l = root->kind == ExprKind::Name ? find_local(root->text) : nullptr;
    if (!l && owner_ && !supposing_)
      changes_.try_emplace(owner_, target.span, fmt::format("an assignment to '{}'", root->text));
    bool was_read = l && l->read;
    t = expr(target);
    if (l) t = l->type;  // the target's declared type: a narrowed local may be set to none again
    if (l && s.assign == lang::Assign::Set) l->read = was_read;  // writing a local is not reading it
    enum_id = target.enum_id;
  }
  bool ok = writable;
  if (ok && s.assign != lang::Assign::Set && !compatible(Type::Int, t)) {
    diags_.report(
        Code::type_mismatch, target.span,
        fmt::format("'{}' needs a number, but this is {}", lang::assign_spelling(s.assign), ast::type_name(t)));
    ok = false;
  }
  Type v = expr(value, t, enum_id);
  if (ok && !compatible(t, v))
    mismatch(value, t, v, fmt::format("cannot assign {} to {}", ast::type_name(v), ast::type_name(t)));
  if (writable && &target == root && root->is_local) assigned(root->sym);
}

}  // namespace keli::check
