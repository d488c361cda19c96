// The checker's pass over bodies: expressions, statements, local scopes, and where each construct
// may appear (while building the board, or during play).
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {
using ast::DeclKind;
using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;
using ast::Type;
using diag::Code;

std::string count_of(size_t n, const char* noun) {
  std::string w = noun;
  if (n != 1) w += w.back() == 'x' ? "es" : "s";
  if (w == "indexs") w = "indices";
  if (w == "indexes") w = "indices";
  return fmt::format("{} {}", n, w);
}
std::string count_is(size_t n) { return fmt::format("{} {}", n, n == 1 ? "is" : "are"); }

void Checker::begin(ast::Decl* owner, Where where) {
  owner_ = owner;
  where_ = where;
  scope_.clear();
  marks_.clear();
  next_slot_ = max_slot_ = 0;
}

int Checker::end() {
  int n = max_slot_;
  scope_.clear();
  owner_ = nullptr;
  return n;
}

int Checker::declare(const std::string& nm, Type t, int enum_id, Span span) {
  int g = c_.lookup(nm);
  const Local* outer = find_local(nm);
  // Only the game's own file is warned about: libraries name their parameters generally.
  if (outer && outer->slot >= formals_ && span.file == c_.modules[c_.main].file)
    diags_.report(Code::shadowed, span, fmt::format("local '{}' hides an outer local of the same name", nm),
                  fmt::format("the outer '{}' is declared at {}; rename one of them", nm, src_.where(outer->span)));
  else if (g >= 0 && c_.syms[g].kind != SymKind::Seat && span.file == c_.modules[c_.main].file)
    diags_.report(Code::shadowed, span, fmt::format("local '{}' hides {} of the same name", nm, sym_kind_name(c_.syms[g].kind)),
                  "rename the local to keep both usable");
  if (span.file == c_.modules[c_.main].file && (find_builtin_var(nm) >= 0 || find_builtin(nm) >= 0))
    diags_.report(Code::shadowed, span, fmt::format("local '{}' hides the built-in '{}'", nm, nm),
                  find_builtin_var(nm) >= 0 ? fmt::format("assigning to this local does not change the game's '{}'", nm) : "rename the local");
  scope_.push_back({nm, t, enum_id, next_slot_, span});
  max_slot_ = std::max(max_slot_, next_slot_ + 1);
  return next_slot_++;
}

const Checker::Local* Checker::find_local(const std::string& nm) const {
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
    if (it->name == nm) return &*it;
  return nullptr;
}

// A bare name that some enumeration lists as a choice: typed after the other side of a comparison.
bool Checker::could_be_choice(const Expr& e) const {
  if (e.kind != ExprKind::Name || find_local(e.text)) return false;
  for (const auto& en : c_.enums)
    if (std::find(en.choices.begin(), en.choices.end(), e.text) != en.choices.end()) return true;
  return false;
}

bool Checker::resolvable(const Expr& e) const {
  if (e.kind != ExprKind::Name) return true;
  return find_local(e.text) || c_.lookup(e.text) >= 0 || find_builtin_var(e.text) >= 0;
}

// A play-only construct: an error while building the board; inside a function, remembered so
// that calls of the function from the board or a shape can be rejected (check_build_calls).
void Checker::needs_play(Span span, const std::string& what) {
  if (where_ == Where::Build) {
    misplaced(span, what, Where::Play);
  } else if (where_ == Where::Any && owner_ && owner_->kind == DeclKind::Def && !play_use_.count(owner_)) {
    play_use_[owner_] = {span, what};
  }
}

void Checker::misplaced(Span span, const std::string& what, Where needed) {
  if (needed == Where::Build)
    diags_.report(Code::misplaced, span, fmt::format("{} can only be used while building the board", what),
                  "use it inside 'board { ... }' or a 'shape'");
  else
    diags_.report(Code::misplaced, span, fmt::format("{} cannot be used while building the board", what),
                  "the board is built before play: only parameters, constants and regions exist then");
}

// ---- expressions --------------------------------------------------------------------------------

Type Checker::expr(Expr& e, Type want, int want_enum) {
  switch (e.kind) {
    case ExprKind::Int:
      e.type = e.type == Type::Enum ? Type::Enum : Type::Int;
      if (e.value > lang::kMaxLiteral && !negated_min_)
        diags_.report(Code::number_too_large, e.span, fmt::format("{} is too large: numbers go up to {}", e.text.empty() ? std::to_string(e.value) : e.text, lang::kMaxLiteral));
      break;
    case ExprKind::Bool: e.type = Type::Bool; break;
    case ExprKind::Str:
      diags_.report(Code::type_mismatch, e.span, "a string can only be used in 'note', 'about' or a parameter's description");
      e.type = Type::Error;
      break;
    case ExprKind::Name: e.type = name(e, want, want_enum); break;
    case ExprKind::Index: e.type = access(e); break;
    case ExprKind::Call: e.type = check_call(e, false); break;
    case ExprKind::Neg: {
      negated_min_ = e.kids[0]->kind == ExprKind::Int && e.kids[0]->value == lang::kMaxLiteral + 1;  // -2147483648
      Type t = expr(*e.kids[0]);
      negated_min_ = false;
      if (!compatible(Type::Int, t))
        diags_.report(Code::type_mismatch, e.kids[0]->span, fmt::format("'-' needs a number, but this is {}", ast::type_name(t)));
      e.type = Type::Int;
      break;
    }
    case ExprKind::Not: want_type(*e.kids[0], Type::Bool, "the operand of 'not'"); e.type = Type::Bool; break;
    case ExprKind::Binary: e.type = binary(e); break;
    case ExprKind::Cond: {
      want_type(*e.kids[0], Type::Bool, "the condition of 'if'");
      Type a = expr(*e.kids[1], want, want_enum);
      Type b = expr(*e.kids[2], a == Type::Enum ? Type::Enum : want, e.kids[1]->enum_id);
      if (a == b || b == Type::Error) {
        e.type = a;
        e.enum_id = e.kids[1]->enum_id;
      } else if (a == Type::Error) {
        e.type = b;
      } else if (ast::is_number(a) && ast::is_number(b)) {
        e.type = a == Type::Int ? b : b == Type::Int ? a : Type::Int;
      } else {
        diags_.report(Code::type_mismatch, e.kids[2]->span,
                      fmt::format("both branches must have one type: {} and {}", ast::type_name(a), ast::type_name(b)));
        e.type = Type::Error;
      }
      if (a == Type::Enum && b == Type::Enum && e.kids[1]->enum_id != e.kids[2]->enum_id)
        diags_.report(Code::type_mismatch, e.kids[2]->span, "both branches must be choices of one parameter");
      break;
    }
    case ExprKind::Aggregate: e.type = aggregate(e); break;
    case ExprKind::List:
      diags_.report(Code::type_mismatch, e.span, "a list '[...]' can only give the faces of dice");
      e.type = Type::Error;
      break;
    case ExprKind::Range:
      diags_.report(Code::type_mismatch, e.span, "a range 'A..B' can only be looped over");
      e.type = Type::Error;
      break;
  }
  return e.type;
}

Type Checker::name(Expr& e, Type want, int want_enum) {
  if (const Local* l = find_local(e.text)) {
    e.is_local = true;
    e.sym = l->slot;
    e.enum_id = l->enum_id;
    l->read = true;
    return l->type;
  }
  // An enumeration's choice, read in the context of that enumeration, wins over other names.
  if (want == Type::Enum && want_enum >= 0) {
    auto& ch = c_.enums[want_enum].choices;
    auto it = std::find(ch.begin(), ch.end(), e.text);
    if (it != ch.end()) {
      e.kind = ExprKind::Int;
      e.value = it - ch.begin();
      e.enum_id = want_enum;
      return Type::Enum;
    }
  }
  int g = c_.lookup(e.text);
  if (g >= 0) {
    Symbol& s = c_.syms[g];
    s.used = true;
    e.sym = g;
    e.enum_id = s.enum_id;
    switch (s.kind) {
      case SymKind::Param: return s.type;
      case SymKind::Seat: return Type::Player;
      case SymKind::Dice: return Type::Dice;
      case SymKind::Phase: entered_.insert(g); return Type::Phase;
      case SymKind::Const:
      case SymKind::Var:
      case SymKind::Region:
      case SymKind::Track:
        if (s.kind == SymKind::Var) needs_play(e.span, fmt::format("variable '{}'", e.text));
        if (!s.decl->dims.empty()) {
          diags_.report(Code::missing_index, e.span,
                        fmt::format("'{}' is indexed per {}: write {}[...]", e.text,
                                    s.decl->dims[0].type.empty() ? "number" : s.decl->dims[0].type, e.text));
          return Type::Error;
        }
        return s.type;
      default:
        diags_.report(Code::type_mismatch, e.span, fmt::format("'{}' is {}, not a value", e.text, sym_kind_name(s.kind)),
                      s.kind == SymKind::Def ? fmt::format("call it: {}(...)", e.text) : "");
        return Type::Error;
    }
  }
  int b = find_builtin_var(e.text);
  if (b >= 0) {
    const auto& info = builtin_var_info(static_cast<BuiltinVar>(b));
    e.ref = b;
    if (info.where == Where::Play) needs_play(e.span, fmt::format("'{}'", e.text));
    if (info.id == BuiltinVar::roll) {
      if (!in_chance_) diags_.report(Code::misplaced, e.span, "'roll' exists only in a chance phase", "throw dice with 'phase NAME chance DICE { ... }'");
      diags_.report(Code::missing_index, e.span, "'roll' holds one value per die: write roll[0], roll[1], ...");
      return Type::Error;
    }
    if (info.type == Type::Domain) {
      e.enum_id = static_cast<int>(info.id == BuiltinVar::sites ? Type::Site : info.id == BuiltinVar::seats ? Type::Player : Type::Piece);
    }
    return info.type;
  }
  // A choice named outside its context: accept it when exactly one enumeration has it.
  int found = -1, count = 0;
  for (size_t i = 0; i < c_.enums.size(); ++i) {
    auto& ch = c_.enums[i].choices;
    auto it = std::find(ch.begin(), ch.end(), e.text);
    if (it != ch.end()) {
      found = static_cast<int>(i);
      e.value = it - ch.begin();
      ++count;
    }
  }
  if (count == 1) {
    e.kind = ExprKind::Int;
    e.enum_id = found;
    return Type::Enum;
  }
  if (broken(e.text)) return Type::Error;  // its declaration did not parse: already reported
  if (want == Type::Enum && want_enum >= 0) {
    const EnumInfo& en = c_.enums[want_enum];
    std::string hint = diag::suggest(e.text, en.choices);
    diags_.report(Code::unknown_choice, e.span, fmt::format("'{}' is not a choice of '{}'", e.text, en.param),
                  hint.empty() ? fmt::format("choices: {}", fmt::join(en.choices, ", ")) : hint);
    return Type::Error;
  }
  std::vector<std::string> cands = global_names();
  for (auto& l : scope_) cands.push_back(l.name);
  for (int i = 0; i < static_cast<int>(BuiltinVar::count_); ++i) cands.push_back(builtin_var_info(static_cast<BuiltinVar>(i)).name);
  if (want == Type::Enum && want_enum >= 0)
    for (auto& ch : c_.enums[want_enum].choices) cands.push_back(ch);
  std::string hint = diag::suggest(e.text, cands);
  if (hint.empty() && count > 1) hint = "several parameters have this choice: compare it with one of them";
  diags_.report(Code::unknown_name, e.span, fmt::format("unknown name '{}'", e.text), hint);
  return Type::Error;
}

// Table, region and roll access: name[i][j]... flattened to the root name and its indices.
Type Checker::access(Expr& e) {
  std::vector<Expr*> idx;
  Expr* root = &e;
  while (root->kind == ExprKind::Index) {
    idx.push_back(root->kids[1].get());
    root = root->kids[0].get();
  }
  std::reverse(idx.begin(), idx.end());
  auto index_as = [&](Expr& i, Type t) {
    Type got = expr(i, t);
    if (!compatible(t, got))
      diags_.report(Code::type_mismatch, i.span, fmt::format("this index must be {}, but it is {}", ast::type_name(t), ast::type_name(got)));
  };
  if (root->kind != ExprKind::Name) {
    diags_.report(Code::bad_index, e.span, "only tables, regions, tracks and 'roll' can be indexed");
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  if (const Local* l = find_local(root->text)) {
    root->is_local = true;
    root->sym = l->slot;
    root->type = l->type;
    l->read = true;
    if (l->type == Type::Region && idx.size() == 1) {
      index_as(*idx[0], Type::Int);
      return Type::Site;
    }
    diags_.report(Code::bad_index, e.span, fmt::format("local '{}' is {} and cannot be indexed", root->text, ast::type_name(l->type)));
    return Type::Error;
  }
  int b = find_builtin_var(root->text);
  if (b >= 0 && c_.lookup(root->text) < 0 && static_cast<BuiltinVar>(b) == BuiltinVar::roll) {
    root->ref = b;
    root->type = Type::Int;
    if (!in_chance_) diags_.report(Code::misplaced, root->span, "'roll' exists only in a chance phase", "throw dice with 'phase NAME chance DICE { ... }'");
    if (idx.size() != 1) diags_.report(Code::bad_index, e.span, "'roll' takes one index: the die");
    for (auto* i : idx) index_as(*i, Type::Int);
    return Type::Int;
  }
  int g = c_.lookup(root->text);
  if (g < 0) {
    name(*root, Type::Error, -1);  // reports the unknown name with a suggestion
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  Symbol& s = c_.syms[g];
  s.used = true;
  root->sym = g;
  if (s.kind != SymKind::Var && s.kind != SymKind::Const && s.kind != SymKind::Region && s.kind != SymKind::Track) {
    diags_.report(Code::bad_index, e.span, fmt::format("'{}' is {} and cannot be indexed", root->text, sym_kind_name(s.kind)));
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  if (s.kind == SymKind::Var) needs_play(root->span, fmt::format("variable '{}'", root->text));
  const auto& dims = s.decl->dims;
  size_t allowed = dims.size() + (s.kind == SymKind::Region || s.kind == SymKind::Track ? 1 : 0);
  if (idx.size() > allowed) {
    diags_.report(Code::bad_index, e.span,
                  fmt::format("'{}' takes {}, but {} given", root->text, count_of(allowed, "index"), count_is(idx.size())));
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  for (size_t k = 0; k < idx.size(); ++k) {
    Type t = Type::Int;
    if (k < dims.size())
      t = dims[k].type == "site" ? Type::Site : dims[k].type == "player" ? Type::Player : dims[k].type == "piece" ? Type::Piece : Type::Int;
    index_as(*idx[k], t);
  }
  if (idx.size() < dims.size()) {
    diags_.report(Code::missing_index, e.span,
                  fmt::format("'{}' needs {}, but {} given", root->text, count_of(dims.size(), "index"), count_is(idx.size())));
    return Type::Error;
  }
  if (s.kind == SymKind::Region || s.kind == SymKind::Track) return idx.size() == dims.size() ? Type::Region : Type::Site;
  return s.type;
}

Type Checker::check_call(Expr& e, bool as_statement) {
  Expr& callee = *e.kids[0];
  size_t nargs = e.kids.size() - 1;
  auto check_args = [&](const std::vector<Type>& types, const std::string& what) {
    if (types.size() != nargs)
      diags_.report(Code::wrong_arity, e.span, fmt::format("{} takes {}, but {} given", what, count_of(types.size(), "argument"), count_is(nargs)));
    for (size_t i = 0; i < nargs; ++i) {
      Type t = i < types.size() ? types[i] : Type::Error;
      Type got = expr(*e.kids[i + 1], t);
      if (!compatible(t, got))
        diags_.report(Code::type_mismatch, e.kids[i + 1]->span,
                      fmt::format("argument {} of {} must be {}, but this is {}", i + 1, what, ast::type_name(t), ast::type_name(got)));
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
    if (info.where == Where::Build && where_ != Where::Build) misplaced(callee.span, fmt::format("'{}(...)'", callee.text), Where::Build);
    return info.result;
  }
  if (g >= 0) {
    diags_.report(Code::not_callable, callee.span, fmt::format("'{}' is {}, not a function", callee.text, sym_kind_name(c_.syms[g].kind)),
                  c_.syms[g].kind == SymKind::Event ? fmt::format("raise an event with 'emit {}(...)'", callee.text) : "");
  } else if (!broken(callee.text)) {
    std::vector<std::string> cands;
    for (auto* d : c_.defs) cands.push_back(d->name);
    for (auto* d : c_.shapes) cands.push_back(d->name);
    for (int i = 0; i < static_cast<int>(Builtin::count_); ++i) cands.push_back(builtin_info(static_cast<Builtin>(i)).name);
    diags_.report(Code::unknown_name, callee.span, fmt::format("unknown function '{}'", callee.text), diag::suggest(callee.text, cands));
  }
  for (size_t i = 0; i < nargs; ++i) expr(*e.kids[i + 1]);
  return Type::Error;
}

// Each class of operator (lang/operators.hpp) is typed by one function.
Type Checker::binary(Expr& e) {
  switch (lang::operator_info(e.op).cls) {
    case lang::OpClass::Logic: return logic_operands(e);
    case lang::OpClass::Membership: return membership_operands(e);
    case lang::OpClass::Equality: return equality_operands(e);
    case lang::OpClass::Ordering:
    case lang::OpClass::Arithmetic: return number_operands(e);
  }
  return Type::Error;
}

Type Checker::logic_operands(Expr& e) {
  const char* op = lang::operator_info(e.op).spelling;
  want_type(*e.kids[0], Type::Bool, fmt::format("the left of '{}'", op).c_str());
  want_type(*e.kids[1], Type::Bool, fmt::format("the right of '{}'", op).c_str());
  return Type::Bool;
}

Type Checker::membership_operands(Expr& e) {
  Expr& r = *e.kids[1];
  want_type(*e.kids[0], Type::Site, "the left of 'in'");
  Type t = expr(r);
  if (t != Type::Region && t != Type::Error)
    diags_.report(Code::type_mismatch, r.span, fmt::format("'in' needs a region or track on its right, but this is {}", ast::type_name(t)));
  return Type::Bool;
}

Type Checker::equality_operands(Expr& e) {
  Expr& l = *e.kids[0];
  Expr& r = *e.kids[1];
  Type lt, rt;
  if (could_be_choice(l) && !could_be_choice(r)) {  // `single == rounds`: type the parameter's side first
    rt = expr(r);
    lt = expr(l, rt, r.enum_id);
  } else {
    lt = expr(l);
    rt = expr(r, lt, l.enum_id);
  }
  bool ok = compatible(lt, rt) || compatible(rt, lt);
  if (lt == Type::Enum && rt == Type::Enum && l.enum_id != r.enum_id) ok = false;
  if (lt == Type::Region || lt == Type::Domain || lt == Type::Dice || lt == Type::Void) ok = ok && lt == Type::Error;
  if (!ok)
    diags_.report(Code::type_mismatch, e.span, fmt::format("cannot compare {} with {}", ast::type_name(lt), ast::type_name(rt)),
                  lt == Type::Enum ? fmt::format("choices of '{}': {}", c_.enums[l.enum_id].param, fmt::join(c_.enums[l.enum_id].choices, ", ")) : "");
  return Type::Bool;
}

// Arithmetic gives an int; ordering compares numbers of one kind.
Type Checker::number_operands(Expr& e) {
  Expr& l = *e.kids[0];
  Expr& r = *e.kids[1];
  const lang::OperatorInfo& info = lang::operator_info(e.op);
  bool cmp = info.cls == lang::OpClass::Ordering;
  Type lt = expr(l), rt = expr(r);
  bool numbers = true;
  for (auto [t, x] : {std::pair{lt, &l}, std::pair{rt, &r}})
    if (!compatible(Type::Int, t)) {
      diags_.report(Code::type_mismatch, x->span, fmt::format("'{}' needs numbers, but this is {}", info.spelling, ast::type_name(t)));
      numbers = false;
    }
  if (cmp && numbers && !compatible(lt, rt))
    diags_.report(Code::type_mismatch, e.span, fmt::format("cannot compare {} with {}", ast::type_name(lt), ast::type_name(rt)));
  return cmp ? Type::Bool : Type::Int;
}

Type Checker::aggregate(Expr& e) {
  size_t mark = scope_.size();
  Type elem = domain(*e.kids[0]);
  e.sym = declare(e.var, elem, -1, e.var_span);
  if (e.kids.size() > 2) want_type(*e.kids[2], Type::Bool, "a 'where' filter");
  Type result;
  const char* word = lang::aggregate_word(e.agg);
  if (e.agg == lang::Aggregate::Sum || e.agg == lang::Aggregate::Min || e.agg == lang::Aggregate::Max) {
    want_type(*e.kids[1], Type::Int, fmt::format("the body of '{}'", word).c_str());
    result = Type::Int;
  } else {
    want_type(*e.kids[1], Type::Bool, fmt::format("the body of '{}'", word).c_str());
    result = e.agg == lang::Aggregate::Count ? Type::Int : Type::Bool;
  }
  scope_.resize(mark);
  return result;
}

// What a loop or move parameter ranges over; returns the element type.
Type Checker::domain(Expr& e) {
  if (e.kind == ExprKind::Range) {
    want_type(*e.kids[0], Type::Int, "the start of a range");
    want_type(*e.kids[1], Type::Int, "the end of a range");
    e.type = Type::Domain;
    e.enum_id = static_cast<int>(Type::Int);
    return Type::Int;
  }
  Type t = expr(e);
  if (t == Type::Domain) return static_cast<Type>(e.enum_id);
  if (t == Type::Region) return Type::Site;
  if (t != Type::Error)
    diags_.report(Code::bad_domain, e.span, fmt::format("cannot range over {}", ast::type_name(t)),
                  "range over 'A..B', a region, a track, 'sites', 'seats' or 'pieces'");
  return Type::Error;
}

// ---- statements ---------------------------------------------------------------------------------

void Checker::block(ast::Block& b) {
  size_t mark = scope_.size();
  for (auto& s : b) stmt(*s);
  scope_.resize(mark);
}

void Checker::stmt(Stmt& s) {
  auto play_only = [&](const char* what) { needs_play(s.span, what); };
  switch (s.kind) {
    case StmtKind::Let: {
      Type t = expr(*s.exprs[0]);
      bool reported = t == Type::Void && s.exprs[0]->kind == ExprKind::Call;  // "gives no value" already said
      if ((t == Type::Void && !reported) || t == Type::Domain || t == Type::Dice)
        diags_.report(Code::type_mismatch, s.exprs[0]->span, fmt::format("a local cannot hold {}", ast::type_name(t)));
      s.slot = declare(s.name, t, s.exprs[0]->enum_id, s.name_span);
      break;
    }
    case StmtKind::Assign: assign(s); break;
    case StmtKind::If:
      for (auto& c : s.exprs) want_type(*c, Type::Bool, "the condition of 'if'");
      for (auto& b : s.blocks) block(b);
      break;
    case StmtKind::While:
      want_type(*s.exprs[0], Type::Bool, "the condition of 'while'");
      block(s.blocks[0]);
      break;
    case StmtKind::For: {
      size_t mark = scope_.size();
      Type elem = domain(*s.exprs[0]);
      s.slot = declare(s.name, elem, -1, s.name_span);
      if (s.exprs.size() > 1) want_type(*s.exprs[1], Type::Bool, "a 'where' filter");
      block(s.blocks[0]);
      scope_.resize(mark);
      break;
    }
    case StmtKind::Return:
      if (!in_def_) {
        diags_.report(Code::misplaced, s.span, "'return' can only be used in a function ('def')");
      } else if (s.exprs.empty()) {
        if (result_ != Type::Void && result_ != Type::Error)
          diags_.report(Code::type_mismatch, s.span, fmt::format("this function must return {}", ast::type_name(result_)));
      } else {
        Type t = expr(*s.exprs[0], result_);
        if (result_ == Type::Void)
          diags_.report(Code::type_mismatch, s.exprs[0]->span, "this function declares no result type, so 'return' takes no value");
        else if (!compatible(result_, t))
          diags_.report(Code::type_mismatch, s.exprs[0]->span,
                        fmt::format("this function returns {}, but this is {}", ast::type_name(result_), ast::type_name(t)));
      }
      break;
    case StmtKind::Emit: {
      play_only("'emit'");
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
          diags_.report(Code::unknown_event, s.name_span, fmt::format("'{}' is {}, not an event", s.name, sym_kind_name(c_.syms[g].kind)),
                        c_.syms[g].kind == SymKind::Def ? fmt::format("call it: {}(...)", s.name) : hint);
        else
          diags_.report(Code::unknown_event, s.name_span, fmt::format("unknown event '{}'", s.name), hint);
        for (size_t i = 1; i < call.kids.size(); ++i) expr(*call.kids[i]);
        break;
      }
      s.sym = g;
      c_.syms[g].used = true;
      ast::Decl* ev = c_.syms[g].decl;
      if (ev->formals.size() != call.kids.size() - 1)
        diags_.report(Code::wrong_arity, call.span,
                      fmt::format("event '{}' takes {}, but {} given", s.name, count_of(ev->formals.size(), "argument"), count_is(call.kids.size() - 1)));
      for (size_t i = 1; i < call.kids.size(); ++i) {
        Type t = i - 1 < ev->formals.size() ? type_from_name(ev->formals[i - 1].type) : Type::Error;
        want_type(*call.kids[i], t, "an event argument");
      }
      if (owner_) calls_.emplace_back(owner_, ev, s.span);
      break;
    }
    case StmtKind::Note: play_only("'note'"); break;
    case StmtKind::Add: {
      if (where_ != Where::Build) misplaced(s.span, "'add'", Where::Build);
      want_type(*s.exprs[0], Type::Site, "what 'add' adds");
      Type t = expr(*s.exprs[1]);
      if (t != Type::Region && t != Type::Error)
        diags_.report(Code::type_mismatch, s.exprs[1]->span, fmt::format("'add' adds to a region or track, but this is {}", ast::type_name(t)));
      else if (s.exprs[1]->kind != ExprKind::Name && s.exprs[1]->kind != ExprKind::Index)
        diags_.report(Code::type_mismatch, s.exprs[1]->span, "'add' needs a declared region or track");
      break;
    }
    case StmtKind::Finish:
      play_only("'finish'");
      for (auto& p : s.exprs) want_type(*p, Type::Player, "'finish'");
      break;
    case StmtKind::EndGame: {
      play_only("'end_game'");
      if (s.name.empty()) break;
      int g = c_.lookup(s.name);
      bool ok = false;
      if (g >= 0) {
        Symbol& sym = c_.syms[g];
        sym.used = true;
        s.sym = g;
        if (sym.kind == SymKind::Var && sym.decl->dims.size() == 1 && sym.decl->dims[0].type == "player" && ast::is_number(sym.type)) ok = true;
        if (sym.kind == SymKind::Def && sym.decl->formals.size() == 1 && sym.decl->formals[0].type == "player" && ast::is_number(sym.type)) ok = true;
      }
      if (!ok && !(g < 0 && broken(s.name)))
        diags_.report(g < 0 ? Code::unknown_name : Code::type_mismatch, s.name_span,
                      g < 0 ? fmt::format("unknown name '{}'", s.name)
                            : fmt::format("'end_game by' needs a number per player, and '{}' is not one", s.name),
                      g < 0 ? diag::suggest(s.name, global_names()) : "use a 'var NAME: int per player' or a 'def NAME(p: player): int'");
      break;
    }
    case StmtKind::Call: check_call(*s.exprs[0], true); break;
  }
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
    if (l) {
      writable = &target == root;
      if (!writable)
        diags_.report(Code::not_assignable, target.span, fmt::format("cannot assign into '{}': a region or track does not change during play", root->text));
    } else if (g >= 0) {
      SymKind k = c_.syms[g].kind;
      c_.syms[g].used = true;
      writable = k == SymKind::Var || (k == SymKind::Const && where_ == Where::Build);
      if (k == SymKind::Const && where_ != Where::Build && !writable)
        diags_.report(Code::not_assignable, target.span, fmt::format("constant '{}' can only be set while building the board", root->text),
                      "declare it with 'var' if it changes during play");
      else if (!writable)
        diags_.report(Code::not_assignable, target.span, fmt::format("cannot assign to {} '{}'", sym_kind_name(k), root->text));
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
    bool was_read = l && l->read;
    t = expr(target);
    if (l && s.assign == lang::Assign::Set) l->read = was_read;  // writing a local is not reading it
    enum_id = target.enum_id;
  }
  bool ok = writable;
  if (ok && s.assign != lang::Assign::Set && !compatible(Type::Int, t)) {
    diags_.report(Code::type_mismatch, target.span, fmt::format("'{}' needs a number, but this is {}", lang::assign_spelling(s.assign), ast::type_name(t)));
    ok = false;
  }
  Type v = expr(value, t, enum_id);
  if (ok && !compatible(t, v))
    diags_.report(Code::type_mismatch, value.span, fmt::format("cannot assign {} to {}", ast::type_name(v), ast::type_name(t)));
}

}  // namespace keli::check
