// The checker's pass over expressions: one function per kind of expression, names resolved
// (locals, choices, globals, built-ins), operators and aggregates typed.
#include <fmt/format.h>

#include <algorithm>

#include "check/checker_impl.hpp"

namespace keli::check {

// ---- expressions --------------------------------------------------------------------------------

Type Checker::expr(Expr& e, Type want, int want_enum) {
  switch (e.kind) {
    case ExprKind::Int: e.type = int_literal(e); break;
    case ExprKind::Bool: e.type = Type::Bool; break;
    case ExprKind::Str: e.type = string_literal(e); break;
    case ExprKind::Name: e.type = name(e, want, want_enum); break;
    case ExprKind::Index: e.type = access(e); break;
    case ExprKind::Call: e.type = check_call(e, false); break;
    case ExprKind::Neg: e.type = negate(e); break;
    case ExprKind::Not: e.type = logical_not(e); break;
    case ExprKind::Binary: e.type = binary(e); break;
    case ExprKind::Cond: e.type = conditional(e, want, want_enum); break;
    case ExprKind::Aggregate: e.type = aggregate(e); break;
    case ExprKind::List: e.type = list_literal(e); break;
    case ExprKind::Range: e.type = range_literal(e); break;
  }
  return e.type;
}

Type Checker::int_literal(Expr& e) {
  if (e.value > lang::kMaxLiteral && !negated_min_)
    diags_.report(Code::number_too_large, e.span,
                  fmt::format("{} is too large: numbers go up to {}", e.text.empty() ? std::to_string(e.value) : e.text,
                              lang::kMaxLiteral));
  return e.type == Type::Enum ? Type::Enum : Type::Int;  // a choice the checker turned into its number stays one
}

Type Checker::string_literal(Expr& e) {
  diags_.report(Code::type_mismatch, e.span,
                "a string can only be used in 'note', 'about' or a parameter's description");
  return Type::Error;
}

Type Checker::list_literal(Expr& e) {
  diags_.report(Code::type_mismatch, e.span, "a list '[...]' can only give the faces of dice or a table's entries",
                "a table's entries are written where it is declared: 'const T: int per 0..3 = [1, 0, -1, 0]'");
  return Type::Error;
}

Type Checker::range_literal(Expr& e) {
  diags_.report(Code::type_mismatch, e.span, "a range 'A..B' can only be looped over");
  return Type::Error;
}

Type Checker::negate(Expr& e) {
  negated_min_ = e.kids[0]->kind == ExprKind::Int && e.kids[0]->value == lang::kMaxLiteral + 1;  // -2147483648
  Type t = expr(*e.kids[0]);
  negated_min_ = false;
  if (!compatible(Type::Int, t))
    mismatch(*e.kids[0], Type::Int, t, fmt::format("'-' needs a number, but this is {}", ast::type_name(t)));
  return Type::Int;
}

Type Checker::logical_not(Expr& e) {
  want_type(*e.kids[0], Type::Bool, "the operand of 'not'");
  return Type::Bool;
}

// if C then A else B: the branches must agree; B is read in A's context (a choice of A's enum).
Type Checker::conditional(Expr& e, Type want, int want_enum) {
  want_type(*e.kids[0], Type::Bool, "the condition of 'if'");
  std::set<int> saved = narrow(*e.kids[0], true);
  Type a = expr(*e.kids[1], want, want_enum);
  narrowed_ = saved;
  narrow(*e.kids[0], false);
  Type b = expr(*e.kids[2], a == Type::Enum ? Type::Enum : want, e.kids[1]->enum_id);
  narrowed_ = std::move(saved);
  Type t;
  if ((a == Type::None || b == Type::None) && a != b) {  // `if p == none then none else p`
    Type other = a == Type::None ? b : a;
    t = lang::is_or_none(other)                        ? other
        : lang::with_none(other) != other              ? lang::with_none(other)
        : other == Type::Error                         ? Type::Error
        : other == Type::Int && lang::is_or_none(want) ? want
                                                       : Type::Void;
    if (t == Type::Void) {
      diags_.report(Code::type_mismatch, e.kids[a == Type::None ? 2 : 1]->span,
                    fmt::format("the other branch is none, so this must be a site, player or piece, not {}",
                                ast::type_name(other)));
      t = Type::Error;
    }
  } else if (lang::is_or_none(a) && lang::without_none(a) == b) {
    t = a;
  } else if (lang::is_or_none(b) && lang::without_none(b) == a) {
    t = b;
  } else if (a == b || b == Type::Error) {
    t = a;
    e.enum_id = e.kids[1]->enum_id;
  } else if (a == Type::Error) {
    t = b;
  } else if (ast::is_number(a) && ast::is_number(b)) {
    t = a == Type::Int ? b : b == Type::Int ? a : Type::Int;
  } else {
    diags_.report(Code::type_mismatch, e.kids[2]->span,
                  fmt::format("both branches must have one type: {} and {}", ast::type_name(a), ast::type_name(b)));
    t = Type::Error;
  }
  if (a == Type::Enum && b == Type::Enum && e.kids[1]->enum_id != e.kids[2]->enum_id)
    diags_.report(Code::type_mismatch, e.kids[2]->span, "both branches must be choices of one parameter");
  if (t == Type::Domain) {  // a loop's domain is opened as written: no engine chooses one at run time
    diags_.report(Code::type_mismatch, e.span, "'if ... then ... else' chooses a value, not a domain to range over",
                  "range over one domain and filter it with 'where', or write a loop in each branch of an 'if'");
    t = Type::Error;
  }
  return t;
}

// A name: a local, a choice of the wanted enumeration, a global, a built-in, or else a choice of
// some enumeration or an unknown name.
Type Checker::name(Expr& e, Type want, int want_enum) {
  if (const Local* l = find_local(e.text)) {
    e.is_local = true;
    e.sym = l->slot;
    e.enum_id = l->enum_id;
    l->read = true;
    if (lang::is_collection(l->type)) {
      diags_.report(Code::type_mismatch, e.span,
                    fmt::format("'{}' is {}, which is no value: it cannot be copied, compared or passed", e.text,
                                ast::type_name(l->type)),
                    collection_hint());
      return Type::Error;
    }
    if (lang::is_or_none(l->type) && narrowed_.count(l->slot)) return lang::without_none(l->type);
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
  if (g >= 0) return global_name(e, g);
  int b = find_builtin_var(e.text);
  if (b >= 0 && builtin_here(e.text)) return builtin_name(e, b);
  if (b >= 0) {
    needs_directions(e.span, fmt::format("'{}'", e.text));
    return Type::Error;
  }
  if (none_literal(e, want)) return Type::None;
  return choice_or_unknown(e, want, want_enum);
}

Type Checker::global_name(Expr& e, int g) {
  Symbol& s = c_.syms[g];
  s.used = true;
  e.sym = g;
  e.enum_id = s.enum_id;
  switch (s.kind) {
    case SymKind::Param: return s.type;
    case SymKind::Seat: return Type::Player;
    case SymKind::Direction: return Type::Direction;
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

Type Checker::builtin_name(Expr& e, int b) {
  const auto& info = builtin_var_info(static_cast<BuiltinVar>(b));
  e.ref = b;
  if (info.where == Where::Play) needs_play(e.span, fmt::format("'{}'", e.text));
  if (info.id == BuiltinVar::roll) {
    if (!in_chance_) roll_outside_chance(e.span);
    diags_.report(Code::missing_index, e.span, "'roll' holds one value per die: write roll[0], roll[1], ...");
    return Type::Error;
  }
  if (info.type == Type::Domain) {
    e.enum_id = static_cast<int>(info.id == BuiltinVar::sites        ? Type::Site
                                 : info.id == BuiltinVar::seats      ? Type::Player
                                 : info.id == BuiltinVar::directions ? Type::Direction
                                                                     : Type::Piece);
  }
  return info.type;
}

Type Checker::choice_or_unknown(Expr& e, Type want, int want_enum) {
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
  for (int i = 0; i < static_cast<int>(BuiltinVar::count_); ++i)
    cands.push_back(builtin_var_info(static_cast<BuiltinVar>(i)).name);
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
      mismatch(i, t, got, fmt::format("this index must be {}, but it is {}", ast::type_name(t), ast::type_name(got)));
  };
  if (root->kind != ExprKind::Name) {
    diags_.report(Code::bad_index, e.span, "only tables, regions, tracks and 'roll' can be indexed");
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  if (Type elem = collection_element(*root); elem != Type::Void) return collection_index(e, *root, idx, elem);
  if (const Local* l = find_local(root->text)) {
    root->is_local = true;
    root->sym = l->slot;
    root->type = l->type;
    l->read = true;
    if (l->type == Type::Region && idx.size() == 1) {
      index_as(*idx[0], Type::Int);
      return Type::Site;
    }
    diags_.report(Code::bad_index, e.span,
                  fmt::format("local '{}' is {} and cannot be indexed", root->text, ast::type_name(l->type)));
    return Type::Error;
  }
  int b = find_builtin_var(root->text);
  if (b >= 0 && c_.lookup(root->text) < 0 && static_cast<BuiltinVar>(b) == BuiltinVar::roll) {
    root->ref = b;
    root->type = Type::Int;
    if (!in_chance_) roll_outside_chance(root->span);
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
    diags_.report(Code::bad_index, e.span,
                  fmt::format("'{}' is {} and cannot be indexed", root->text, sym_kind_name(s.kind)));
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  if (s.kind == SymKind::Var) needs_play(root->span, fmt::format("variable '{}'", root->text));
  const auto& dims = s.decl->dims;
  size_t allowed = dims.size() + (s.kind == SymKind::Region || s.kind == SymKind::Track ? 1 : 0);
  if (idx.size() > allowed) {
    diags_.report(
        Code::bad_index, e.span,
        fmt::format("'{}' takes {}, but {} given", root->text, count_of(allowed, "index"), count_is(idx.size())));
    for (auto* i : idx) expr(*i);
    return Type::Error;
  }
  for (size_t k = 0; k < idx.size(); ++k) {
    Type t = Type::Int;
    if (k < dims.size())
      t = dims[k].type == "site"        ? Type::Site
          : dims[k].type == "player"    ? Type::Player
          : dims[k].type == "piece"     ? Type::Piece
          : dims[k].type == "direction" ? Type::Direction
                                        : Type::Int;
    index_as(*idx[k], t);
  }
  if (idx.size() < dims.size()) {
    diags_.report(
        Code::missing_index, e.span,
        fmt::format("'{}' needs {}, but {} given", root->text, count_of(dims.size(), "index"), count_is(idx.size())));
    return Type::Error;
  }
  if (s.kind == SymKind::Region || s.kind == SymKind::Track)
    return idx.size() == dims.size() ? Type::Region : Type::Site;
  return s.type;
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
  // `x != none and ...`, `x == none or ...`: the right is read only where the left proved x
  std::set<int> saved = narrow(*e.kids[0], e.op == lang::Operator::And);
  want_type(*e.kids[1], Type::Bool, fmt::format("the right of '{}'", op).c_str());
  narrowed_ = std::move(saved);
  return Type::Bool;
}

Type Checker::membership_operands(Expr& e) {
  Expr& r = *e.kids[1];
  if (const Local* l = local_collection(r)) {
    const Type elem = l->elem;  // a value of a list or set: the left is checked first (it may move scope_)
    want_type(*e.kids[0], elem, "the left of 'in'");
    collection_element(r);
    return Type::Bool;
  }
  want_type(*e.kids[0], Type::Site, "the left of 'in'");
  Type t = expr(r);
  if (t != Type::Region && t != Type::Error)
    diags_.report(Code::type_mismatch, r.span,
                  fmt::format("'in' needs a region or track on its right, but this is {}", ast::type_name(t)));
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
  // `x != none` for a site, player or piece too (where x is narrowed it is redundant, not wrong)
  for (auto [a, b] : {std::pair{lt, rt}, std::pair{rt, lt}})
    if (a == Type::None && (b == Type::Site || b == Type::Player || b == Type::Piece)) ok = true;
  if (lt == Type::Enum && rt == Type::Enum && l.enum_id != r.enum_id) ok = false;
  if (lt == Type::Region || lt == Type::Domain || lt == Type::Dice || lt == Type::Void) ok = ok && lt == Type::Error;
  if (!ok)
    diags_.report(Code::type_mismatch, e.span,
                  fmt::format("cannot compare {} with {}", ast::type_name(lt), ast::type_name(rt)),
                  lt == Type::Enum ? fmt::format("choices of '{}': {}", c_.enums[l.enum_id].param,
                                                 fmt::join(c_.enums[l.enum_id].choices, ", "))
                                   : "");
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
      mismatch(*x, Type::Int, t, fmt::format("'{}' needs numbers, but this is {}", info.spelling, ast::type_name(t)));
      numbers = false;
    }
  if (cmp && numbers && !compatible(lt, rt))
    diags_.report(Code::type_mismatch, e.span,
                  fmt::format("cannot compare {} with {}", ast::type_name(lt), ast::type_name(rt)));
  return cmp ? Type::Bool : Type::Int;
}

Type Checker::aggregate(Expr& e) {
  size_t mark = scope_.size();
  Type elem = domain(*e.kids[0]);
  e.sym = declare(e.var, elem, -1, e.var_span);
  iterate(*e.kids[0], true);
  std::set<int> saved = narrowed_;
  loop_conditions(ast::loop_while(e), ast::loop_filter(e));
  Type result;
  const char* word = lang::aggregate_word(e.agg);
  if (e.agg == lang::Aggregate::Sum || e.agg == lang::Aggregate::Min || e.agg == lang::Aggregate::Max) {
    want_type(*e.kids[1], Type::Int, fmt::format("the body of '{}'", word).c_str());
    result = Type::Int;
  } else {
    want_type(*e.kids[1], Type::Bool, fmt::format("the body of '{}'", word).c_str());
    result = e.agg == lang::Aggregate::Count ? Type::Int : Type::Bool;
  }
  narrowed_ = std::move(saved);
  iterate(*e.kids[0], false);
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
  if (Type elem = collection_element(e); elem != Type::Void) return elem;
  Type t = expr(e);
  if (t == Type::Domain) return static_cast<Type>(e.enum_id);
  if (t == Type::Region) return Type::Site;
  if (t != Type::Error)
    diags_.report(Code::bad_domain, e.span, fmt::format("cannot range over {}", ast::type_name(t)),
                  "range over 'A..B', a region, a track, 'sites', 'seats', 'pieces' or a local list or set");
  return Type::Error;
}

}  // namespace keli::check
