// The checker: symbol collection (with variant overrides, check_collect.cpp), then one pass over
// every declaration (here) that resolves names, types expressions and statements (check_expr.cpp,
// check_stmt.cpp), and records the call graph; then the checks on calls (check_calls.cpp). It
// never stops at the first error: every problem becomes a diagnostic.
#include "check/checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

#include "check/checker_impl.hpp"
#include "lang/builtins.hpp"

namespace keli::check {

const char* sym_kind_name(SymKind k) {
  static const char* names[] = {"a parameter",
                                "a constant table",
                                "a variable",
                                "a region",
                                "a track",
                                "dice",
                                "a function",
                                "a shape",
                                "an event",
                                "a phase",
                                "a seat",
                                "a direction",
                                "a built-in function",
                                "a built-in variable"};
  return names[static_cast<int>(k)];
}

int frame_size(const ast::Decl& d) { return d.frame; }

bool is_most_dice(const ast::Expr& e) {
  return e.kind == ast::ExprKind::Name && !e.is_local && e.sym < 0 && e.type == Type::Int &&
         lang::find_builtin_var(e.text) == static_cast<int>(lang::BuiltinVar::most_dice);
}

std::string Checker::hint_or(std::string hint, std::string fallback) { return hint.empty() ? fallback : hint; }

// ---- declarations -------------------------------------------------------------------------------

void Checker::check_all() {
  const ast::Module& main = c_.modules[c_.main];
  Span top = main.game_span.valid() ? main.game_span : Span{main.file, 1, 1, 0};
  type_symbols();  // first, so bodies can refer to anything declared anywhere
  for (auto* d : c_.params) check_param(*d);
  if (!c_.players && !broken("players")) {
    diags_.report(Code::missing_decl, top, "the game declares no players",
                  "add 'players N', for example 'players 2 named South, North'");
  } else if (c_.players) {  // a broken `players` line declares nothing: its syntax error says why
    constant_int(*c_.players->value, "the number of players");
  }
  if (c_.pieces) constant_int(*c_.pieces->value, "the number of pieces");
  for (auto* d : c_.consts) check_table(*d, true);
  for (auto* d : c_.vars) check_table(*d, false);
  for (auto* d : c_.regions) check_dims(*d);
  for (auto* d : c_.tracks) check_dims(*d);
  for (auto* d : c_.dice) check_dice(*d);
  if (!c_.board && !broken("board")) {
    diags_.report(Code::missing_decl, top, "the game declares no board",
                  "add 'board { ... }' or 'board SHAPE(...)', for example 'board two_rows(7)'");
  } else if (c_.board) {
    check_board(*c_.board);
    check_geometry();
  }
  for (auto* d : c_.shapes) check_shape(*d);
  for (auto* d : c_.defs) check_def(*d);
  for (auto* d : c_.handlers) check_handler(*d);
  for (auto* d : c_.setups) {
    begin(d, Where::Play);
    block(d->body);
    d->frame = end();
  }
  if (c_.phases.empty() && !broken("phase"))
    diags_.report(Code::missing_decl, top, "the game declares no phase",
                  "add 'phase NAME { move ... }': the first phase declared is where play starts");
  for (auto* d : c_.phases) check_phase(*d);
  for (auto* d : c_.invariants) {
    begin(d, Where::Play);
    want_type(*d->value, Type::Bool, "an invariant");
    d->frame = end();
  }
  for (auto* d : c_.limits) check_limit(*d);
  for (auto* d : c_.displays) check_display(*d);
  if (c_.compared) check_compared(*c_.compared);
  check_recursion();
  check_build_calls();
  check_roll_calls();
  check_agent_defs();
  check_ai_block();
  check_facts();
}

// The types of parameters, tables, places, dice, phases and function results, and the formals.
void Checker::type_symbols() {
  for (auto* d : c_.params) {
    Symbol& s = c_.syms[d->sym];
    s.type = d->ptype == ast::ParamType::Bool ? Type::Bool : d->ptype == ast::ParamType::Enum ? Type::Enum : Type::Int;
  }
  for (auto* d : c_.consts) c_.syms[d->sym].type = declared_type(d->type, d->type_span);
  for (auto* d : c_.vars) c_.syms[d->sym].type = declared_type(d->type, d->type_span);
  for (auto* d : c_.regions) c_.syms[d->sym].type = Type::Region;
  for (auto* d : c_.tracks) c_.syms[d->sym].type = Type::Region;
  for (auto* d : c_.dice) c_.syms[d->sym].type = Type::Dice;
  for (auto* d : c_.phases) c_.syms[d->sym].type = Type::Phase;
  for (auto* d : c_.defs) c_.syms[d->sym].type = d->type.empty() ? Type::Void : declared_type(d->type, d->type_span);
  for (auto* list : {&c_.defs, &c_.shapes, &c_.events})
    for (auto* d : *list) check_formals(*d);
}

// `board { ... }` is built by its block; `board SHAPE(...)` must call a shape, not a function.
void Checker::check_board(ast::Decl& d) {
  begin(&d, Where::Build);
  if (d.value) {
    check_call(*d.value, true);
    const ast::Expr& callee = *d.value->kids[0];
    int g = c_.lookup(callee.text);
    if (g >= 0 && c_.syms[g].kind == SymKind::Def)
      diags_.report(Code::type_mismatch, callee.span, fmt::format("'{}' is a function, not a shape", callee.text),
                    "'board NAME(...)' calls a shape: declare it with 'shape', or write 'board { ... }'");
  } else {
    block(d.body);
  }
  d.frame = end();
}

void Checker::check_shape(ast::Decl& d) {
  begin(&d, Where::Build);
  formals_ = static_cast<int>(d.formals.size());
  for (auto& f : d.formals) declare(f.name, type_from_name(f.type), -1, f.span);
  formals_ = 0;
  block(d.body);
  for (size_t i = 0; i < d.formals.size() && i < scope_.size(); ++i)
    if (!scope_[i].read && warn_in(d.file) && !d.broken) unread_.emplace_back(&d, i);
  d.frame = end();
}

// `limit NAME N`: a known limit, once per file (a variant's replaces its base's), N constant.
void Checker::check_limit(ast::Decl& d) {
  const std::vector<std::string> names(std::begin(lang::kGameLimitNames), std::end(lang::kGameLimitNames));
  if (lang::find_game_limit(d.name) < 0)
    diags_.report(Code::unknown_name, d.name_span, fmt::format("unknown limit '{}'", d.name),
                  hint_or(diag::suggest(d.name, names),
                          fmt::format("the limits a game may declare are '{}'", fmt::join(names, "', '"))));
  for (const ast::Decl* e : c_.limits) {
    if (e == &d) break;
    if (e->name == d.name && e->file == d.file)
      diags_.report(Code::duplicate_name, d.name_span, fmt::format("'limit {}' is declared twice", d.name),
                    fmt::format("keep one: the other is on line {}", e->name_span.line));
  }
  constant_int(*d.value, "a limit");
}

void Checker::check_param(ast::Decl& d) {
  Symbol& s = c_.syms[d.sym];
  begin(&d, Where::Any);
  if (d.ptype == ast::ParamType::Enum) {
    if (d.value->kind != ExprKind::Name ||
        std::find(d.choices.begin(), d.choices.end(), d.value->text) == d.choices.end()) {
      std::string hint = d.value->kind == ExprKind::Name ? diag::suggest(d.value->text, d.choices) : "";
      diags_.report(Code::bad_param_value, d.value->span,
                    d.value->kind == ExprKind::Name
                        ? fmt::format("the default must be one of the choices: '{}' is not a choice of '{}'",
                                      d.value->text, d.name)
                        : std::string("the default must be one of the choices"),
                    hint.empty() ? fmt::format("choices: {}", fmt::join(d.choices, ", ")) : hint);
    } else {
      d.value->type = Type::Enum;
      d.value->enum_id = s.enum_id;
      d.value->ref = static_cast<int>(std::find(d.choices.begin(), d.choices.end(), d.value->text) - d.choices.begin());
    }
  } else if (d.ptype == ast::ParamType::Bool) {
    if (d.value->kind != ExprKind::Bool)
      diags_.report(Code::bad_param_value, d.value->span, "the default of a bool parameter must be true or false");
    else
      d.value->type = Type::Bool;
  } else {
    auto v = literal_int(*d.value);
    if (!v) {
      diags_.report(Code::bad_param_value, d.value->span, "the default of an int parameter must be a number");
    } else {
      d.value->type = Type::Int;
      if (d.lo) {
        auto lo = literal_int(*d.lo), hi = literal_int(*d.hi);
        if (!lo || !hi || *lo > *hi) {
          diags_.report(Code::bad_param_decl, d.lo->span, "the allowed range must be two numbers, low..high");
        } else if (*v < *lo || *v > *hi) {
          diags_.report(Code::bad_param_value, d.value->span,
                        fmt::format("the default {} is outside the allowed range {}..{}", *v, *lo, *hi));
        }
      } else if (!d.allowed.empty()) {
        bool found = false;
        std::vector<std::string> vals;
        for (auto& a : d.allowed) {
          auto av = literal_int(*a);
          if (!av)
            diags_.report(Code::bad_param_decl, a->span, "allowed values must be numbers");
          else {
            vals.push_back(std::to_string(*av));
            found = found || *av == *v;
          }
        }
        if (!found)
          diags_.report(Code::bad_param_value, d.value->span, fmt::format("the default {} is not an allowed value", *v),
                        fmt::format("allowed: {}", fmt::join(vals, ", ")));
      }
    }
  }
  end();
}

void Checker::check_dims(ast::Decl& d) {
  begin(&d, Where::Any);
  for (auto& dim : d.dims) {
    if (!dim.type.empty()) {
      if (dim.type == "direction")
        declared_type(dim.type, dim.span);  // needs the directions
      else if (dim.type != "site" && dim.type != "player" && dim.type != "piece")
        diags_.report(Code::unknown_type, dim.span, fmt::format("a table cannot be indexed per '{}'", dim.type),
                      hint_or(diag::suggest(dim.type, {"site", "player", "piece", "direction"}),
                              "index by site, player, piece, direction or a range A..B"));
    } else {
      constant_int(*dim.lo, "a range bound");
      constant_int(*dim.hi, "a range bound");
    }
  }
  if (d.dims.size() > static_cast<size_t>(lang::kMaxTableDims))
    diags_.report(Code::bad_index, d.dims[lang::kMaxTableDims].span,
                  fmt::format("tables have at most {} dimensions, this one has {}", lang::kMaxTableDims, d.dims.size()),
                  "split it into tables of fewer dimensions");
  if (d.kind == DeclKind::Region || d.kind == DeclKind::Track)
    for (auto& dim : d.dims)
      if (dim.type == "site")
        diags_.report(Code::bad_index, dim.span,
                      fmt::format("a {} cannot be indexed per site", ast::decl_kind_name(d.kind)),
                      "index it per player, per piece or per range A..B");
  end();
}

void Checker::check_table(ast::Decl& d, bool is_const) {
  check_dims(d);
  if (d.value) {
    begin(&d, Where::Any);
    if (d.value->kind == ExprKind::List)
      table_literal(d, *d.value, 0, is_const);
    else
      initial_value(d, *d.value, is_const);
    end();
  }
}

// One value given to a table's entry (or to every entry): a constant of the table's type.
void Checker::initial_value(ast::Decl& d, Expr& e, bool is_const) {
  Type t = c_.syms[d.sym].type;
  Type got = expr(e, t);
  if (!compatible(t, got))
    mismatch(e, t, got,
             fmt::format("the initial value is {}, but '{}' holds {}", ast::type_name(got), d.name, ast::type_name(t)));
  if (!is_constant(e))
    diags_.report(
        Code::not_constant, e.span,
        fmt::format("the initial value of {} must be known before play", is_const ? "a constant" : "a variable"),
        "use numbers and parameters here, or set the value in a 'setup' block");
}

void Checker::check_dice(ast::Decl& d) {
  begin(&d, Where::Any);
  if (d.copies) constant_int(*d.copies, "the number of dice");
  for (auto& die : d.faces)
    for (auto& f : die) constant_int(*f, "a die face");
  end();
}

void Checker::check_def(ast::Decl& d) {
  begin(&d, Where::Any);
  in_def_ = true;
  result_ = c_.syms[d.sym].type;
  formals_ = static_cast<int>(d.formals.size());
  for (auto& f : d.formals) declare(f.name, type_from_name(f.type), -1, f.span);
  formals_ = 0;
  if (d.value) {
    Type got = expr(*d.value, result_);
    if (result_ == Type::Void) {
      diags_.report(Code::type_mismatch, d.name_span,
                    fmt::format("'{}' gives a value but declares no result type", d.name),
                    fmt::format("add ': {}' after the parameters", ast::type_name(got)));
    } else if (!compatible(result_, got)) {
      mismatch(*d.value, result_, got,
               fmt::format("'{}' must give {}, but this is {}", d.name, ast::type_name(result_), ast::type_name(got)));
    }
  } else {
    block(d.body);
    if (result_ != Type::Void && result_ != Type::Error && !d.broken && !always_returns(d.body))
      diags_.report(Code::missing_return, d.name_span, fmt::format("'{}' can end without returning a value", d.name),
                    "end every path through the body with 'return VALUE'");
  }
  in_def_ = false;
  result_ = Type::Void;
  for (size_t i = 0; i < d.formals.size() && i < scope_.size(); ++i)
    if (!scope_[i].read && warn_in(d.file) && !d.broken) unread_.emplace_back(&d, i);
  d.frame = end();
}

void Checker::check_handler(ast::Decl& d) {
  begin(&d, Where::Play);
  int e = c_.lookup(d.name);
  ast::Decl* ev = nullptr;
  if ((e < 0 || c_.syms[e].kind != SymKind::Event) && broken(d.name)) {
    // the event's declaration did not parse: already reported
  } else if (e < 0 || c_.syms[e].kind != SymKind::Event) {
    std::vector<std::string> evs;
    for (auto* x : c_.events) evs.push_back(x->name);
    diags_.report(Code::unknown_event, d.name_span, fmt::format("unknown event '{}'", d.name),
                  hint_or(diag::suggest(d.name, evs),
                          evs.empty() ? "no events are declared" : fmt::format("events: {}", fmt::join(evs, ", "))));
  } else {
    ev = c_.syms[e].decl;  // a handler alone does not use its event: only an emit does
    d.sym = e;
    if (d.formals.size() > ev->formals.size())  // fewer: the handler names the first ones only
      diags_.report(Code::handler_arity, d.name_span,
                    fmt::format("event '{}' has {}, but this handler names {}", d.name,
                                count_of(ev->formals.size(), "parameter"), d.formals.size()),
                    fmt::format("declared at {}", src_.where(ev->name_span)));
  }
  formals_ = static_cast<int>(d.formals.size());
  for (size_t i = 0; i < d.formals.size(); ++i) {
    Type t = ev && i < ev->formals.size() ? type_from_name(ev->formals[i].type) : Type::Error;
    declare(d.formals[i].name, t, -1, d.formals[i].span);
  }
  formals_ = 0;
  if (d.guard) want_type(*d.guard, Type::Bool, "a 'when' guard");
  block(d.body);
  d.frame = end();
}

void Checker::check_phase(ast::Decl& d) {
  if (d.value) {  // a chance phase: its block runs once the dice are thrown
    begin(&d, Where::Any);
    check_dice_choice(*d.value);
    end();
    begin(&d, Where::Play);
    in_chance_ = true;
    block(d.body);
    in_chance_ = false;
    d.frame = end();
  }
  std::set<std::string> names;
  int otherwise = 0;
  for (auto& m : d.moves) {
    if (!names.insert(m.name).second)
      diags_.report(Code::duplicate_name, m.span,
                    fmt::format("phase '{}' already has a rule named '{}'", d.name, m.name));
    if (m.is_otherwise && ++otherwise > 1)
      diags_.report(Code::duplicate_name, m.span, "a phase has at most one 'otherwise' rule");
    begin(&d, Where::Play);
    in_chance_ = d.value != nullptr;
    for (auto& p : m.params) {
      Type t = domain(*p.domain);
      p.slot = declare(p.name, t, -1, p.span);
      if (p.filter) want_type(*p.filter, Type::Bool, "a parameter's 'where' filter");
      if (p.filter) never_.emplace_back(p.filter.get(), "its 'where' filter", m.name);
      if (p.distinct) distinct_key(*p.distinct);
    }
    if (m.has_reads) check_reads(m);
    if (m.guard) want_type(*m.guard, Type::Bool, "a 'when' guard");
    if (m.guard) never_.emplace_back(m.guard.get(), "its 'when' guard", m.name);
    block(m.body);
    in_chance_ = false;
    m.frame = end();
  }
}

void Checker::check_formals(ast::Decl& d) {
  std::set<std::string> names;
  const ast::Formal* defaulted = nullptr;  // the first parameter with a default
  for (auto& f : d.formals) {
    Type t = declared_type(f.type, f.type_span);
    if (f.fallback) {
      check_default(f, t);
      if (!defaulted) defaulted = &f;
    } else if (defaulted) {
      diags_.report(Code::misplaced, f.span,
                    fmt::format("'{}' has no default, but comes after '{}', which has one", f.name, defaulted->name),
                    "parameters with defaults come last, so that a call may leave them out");
    }
    if (!names.insert(f.name).second)
      diags_.report(Code::duplicate_name, f.span,
                    fmt::format("'{}' is already declared as a parameter of '{}'", f.name, d.name));
  }
  if (d.formals.size() > static_cast<size_t>(lang::kMaxArgs))
    diags_.report(
        Code::wrong_arity, d.name_span,
        fmt::format("'{}' has {} parameters; at most {} are allowed", d.name, d.formals.size(), lang::kMaxArgs));
}

// A chance phase throws dice: a dice name, or a choice between dice made from parameters.
void Checker::check_dice_choice(Expr& e) {
  if (e.kind == ExprKind::Cond) {
    want_type(*e.kids[0], Type::Bool, "the condition");
    if (!is_constant(*e.kids[0]))
      diags_.report(Code::not_constant, e.kids[0]->span, "which dice are thrown must be decided by parameters");
    check_dice_choice(*e.kids[1]);
    check_dice_choice(*e.kids[2]);
    e.type = Type::Dice;
    return;
  }
  Type t = expr(e);
  if (t != Type::Dice && t != Type::Error)
    diags_.report(Code::type_mismatch, e.span,
                  fmt::format("a chance phase throws dice, but this is {}", ast::type_name(t)),
                  "name dice declared with 'dice NAME = ...'");
}

}  // namespace keli::check

namespace keli::check {

Checked check_game(ast::Loaded&& loaded, const SourceSet& src, diag::Diagnostics& diags) {
  Checked c;
  c.modules = std::move(loaded.modules);
  c.main = loaded.main;
  if (c.main < 0) return c;
  Checker ck(c, src, diags);
  ck.collect();
  ck.check_all();
  ck.warn_unused();
  diags.sort_by_position();
  return c;
}

}  // namespace keli::check
