// The rulebook's English for expressions: values as noun phrases, conditions as clauses.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "describe/describe.hpp"
#include "lang/arith.hpp"
#include "lang/collections.hpp"
#include "rulebook/words.hpp"

namespace keli::rulebook {
using ast::Expr;
using ast::ExprKind;
using check::SymKind;
using lang::OpClass;
using lang::Operator;

namespace {

bool is_clause(const Expr& e) {
  if (e.kind == ExprKind::Not) return true;
  if (e.kind != ExprKind::Binary) return false;
  return lang::operator_info(e.op).cls != OpClass::Arithmetic;
}

// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

// The comparison that holds exactly when `op` does not.
std::optional<Operator> negated(Operator op) {
  switch (op) {
    case Operator::Eq: return Operator::Ne;
    case Operator::Ne: return Operator::Eq;
    case Operator::Lt: return Operator::Ge;
    case Operator::Ge: return Operator::Lt;
    case Operator::Le: return Operator::Gt;
    case Operator::Gt: return Operator::Le;
    default: return std::nullopt;
  }
}

// A phrase that reads as one word, so "X's" can be written of it.
bool simple(const std::string& s) { return s.find(' ') == std::string::npos || s == "the mover"; }

}  // namespace

Words::Words(const check::Checked& ck, const SourceSet& src, const compile::Program& prog)
    : ck_(ck), src_(src), prog_(prog) {
  for (const auto& [pname, text] : prog.params) {
    int g = ck.lookup(pname);
    if (text == "true" || text == "false") {
      param_values_[pname] = text == "true";
    } else if (g >= 0 && ck.syms[g].enum_id >= 0 && ck.syms[g].type == ast::Type::Enum) {
      const auto& ch = ck.enums[static_cast<size_t>(ck.syms[g].enum_id)].choices;
      for (size_t i = 0; i < ch.size(); ++i)
        if (ch[i] == text) param_values_[pname] = static_cast<int64_t>(i);
    } else {
      try {
        param_values_[pname] = std::stoll(text);
      } catch (const std::exception&) {  // a value that is no number: left unfolded
      }
    }
  }
}

const check::Symbol* Words::global(const Expr& e) const {
  if (e.kind != ExprKind::Name || e.is_local || e.sym < 0 || e.sym >= static_cast<int>(ck_.syms.size())) return nullptr;
  return &ck_.syms[static_cast<size_t>(e.sym)];
}

std::optional<int64_t> Words::constant(const Expr& e) const {
  auto fold = [](lang::Result r) -> std::optional<int64_t> {
    if (!r.ok()) return std::nullopt;
    return r.value;
  };
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Bool: return e.value;
    case ExprKind::Name: {
      const check::Symbol* s = global(e);
      if (!s) return std::nullopt;
      if (s->kind == SymKind::Param) {
        auto it = param_values_.find(s->name);
        return it == param_values_.end() ? std::nullopt : std::optional<int64_t>(it->second);
      }
      if (s->kind == SymKind::Const && s->decl && s->decl->dims.empty() && s->decl->value)
        return constant(*s->decl->value);
      return std::nullopt;
    }
    case ExprKind::Neg:
    case ExprKind::Not: {
      auto a = constant(*e.kids[0]);
      if (!a) return std::nullopt;
      return e.kind == ExprKind::Not ? std::optional<int64_t>(*a == 0) : fold(lang::apply(e.op, *a));
    }
    case ExprKind::Binary: {
      auto a = constant(*e.kids[0]);
      if (e.op == Operator::And && a && *a == 0) return 0;
      if (e.op == Operator::Or && a && *a != 0) return 1;
      auto b = constant(*e.kids[1]);
      if (e.op == Operator::And && b && *b == 0) return 0;
      if (e.op == Operator::Or && b && *b != 0) return 1;
      if (!a || !b || e.op == Operator::In) return std::nullopt;
      if (e.op == Operator::And || e.op == Operator::Or) return *b != 0;
      return fold(lang::apply(e.op, *a, *b));
    }
    case ExprKind::Cond: {
      auto c = constant(*e.kids[0]);
      if (!c) return std::nullopt;
      return constant(*e.kids[*c ? 1 : 2]);
    }
    default: return std::nullopt;
  }
}

std::string Words::code(const Expr& e) {
  fallbacks.push_back({src_.where(e.span), describe::expr_text(e)});
  return "`" + describe::expr_text(e) + "`";
}

std::string Words::value(const Expr& e) {
  if (e.kind != ExprKind::Int && (e.type == ast::Type::Int))
    if (auto c = constant(e)) return std::to_string(*c);
  if (e.type == ast::Type::Player && e.kind != ExprKind::Name)  // `mover = 0`: the seat's name
    if (auto c = constant(e); c && *c >= 0 && *c < static_cast<int64_t>(prog_.seat_names.size()))
      return prog_.seat_names[static_cast<size_t>(*c)];
  switch (e.kind) {
    case ExprKind::Int:
      if (e.type == ast::Type::Enum && !e.text.empty() && !std::isdigit(static_cast<unsigned char>(e.text[0])))
        return e.text;
      return e.text.empty() ? std::to_string(e.value) : e.text;
    case ExprKind::Bool: return e.value ? "true" : "false";
    case ExprKind::Str: return "\u201c" + e.text + "\u201d";
    case ExprKind::Name: return name(e);
    case ExprKind::Call: return call(e, false);
    case ExprKind::Index: return index(e);
    case ExprKind::Neg: return fill(lang::operator_info(e.op).words, {{"0", operand(*e.kids[0])}});
    case ExprKind::Not: return "whether " + holds(e);
    case ExprKind::Binary: return is_clause(e) ? "whether " + holds(e) : binary(e);
    case ExprKind::Cond: {
      if (auto c = constant(*e.kids[0])) return value(*e.kids[*c ? 1 : 2]);
      return fmt::format("{} if {}, else {}", value(*e.kids[1]), holds(*e.kids[0]), value(*e.kids[2]));
    }
    case ExprKind::Aggregate: return aggregate(e);
    case ExprKind::List: {
      std::vector<std::string> items;
      for (const auto& k : e.kids) items.push_back(value(*k));
      return and_list(items);
    }
    case ExprKind::Range: return fmt::format("{} to {}", value(*e.kids[0]), value(*e.kids[1]));
  }
  return code(e);
}

std::string Words::name(const Expr& e) {
  if (e.is_local) return spoken(e.text);
  if (e.type == ast::Type::None) return "none";
  if (const check::Symbol* s = global(e)) {
    switch (s->kind) {
      case SymKind::Param: {
        for (const auto& [pname, text] : prog_.params)
          if (pname == s->name) return text;
        return "the option " + spoken(s->name);
      }
      case SymKind::Seat: return s->name;
      case SymKind::Direction: return spoken(s->name);
      case SymKind::Phase: return "the " + spoken(s->name) + " phase";
      case SymKind::Dice: {
        std::string n = spoken(s->name);
        return "the " + n + (n.size() >= 4 && n.compare(n.size() - 4, 4, "dice") == 0 ? "" : " dice");
      }
      default: return "the " + spoken(s->name);
    }
  }
  if (e.ref >= 0 && e.ref < static_cast<int>(lang::BuiltinVar::count_))
    return lang::builtin_var_info(static_cast<lang::BuiltinVar>(e.ref)).words;
  return code(e);
}

std::string Words::operand(const Expr& e) {
  std::string v = value(e);
  bool weaker = e.kind == ExprKind::Binary || e.kind == ExprKind::Cond || e.kind == ExprKind::Neg;
  return weaker && !constant(e) ? "(" + v + ")" : v;
}

std::string Words::binary(const Expr& e) {
  return fill(lang::operator_info(e.op).words, {{"0", operand(*e.kids[0])}, {"1", operand(*e.kids[1])}});
}

// `t[a][b]` is written as an index of an index: the table is the innermost callee, and its
// arguments come from the inside out.
const Expr& Words::indexed(const Expr& e, std::vector<std::string>& args) {
  std::vector<const Expr*> chain;
  const Expr* table = &e;
  for (; table->kind == ExprKind::Index; table = table->kids[0].get()) chain.insert(chain.begin(), table);
  for (const Expr* level : chain)
    for (size_t i = 1; i < level->kids.size(); ++i) args.push_back(value(*level->kids[i]));
  return *table;
}

std::optional<std::string> Words::flag(const Expr& e, const std::string& how) {
  if (e.kind != ExprKind::Index) return std::nullopt;
  std::vector<std::string> args;
  const check::Symbol* s = global(indexed(e, args));
  if (!s || !s->decl || s->type != ast::Type::Bool || args.empty() || s->kind == SymKind::Region ||
      s->kind == SymKind::Track)
    return std::nullopt;
  return flag_words(args, how, spoken(s->name));
}

std::string Words::flag_words(const std::vector<std::string>& args, const std::string& how, const std::string& name) {
  return and_list(args) + (args.size() > 1 ? " are" : " is") + how + " " + name;
}

std::string Words::index(const Expr& e) {
  std::vector<std::string> args;
  const Expr* table = &indexed(e, args);
  const Expr& last = *e.kids.back();
  if (table->kind == ExprKind::Name && table->ref == static_cast<int>(lang::BuiltinVar::roll) && !global(*table)) {
    if (auto c = constant(last)) return fmt::format("the value of die {}", *c + 1);
    return fmt::format("the value of die number {} (counting from 0)", args.back());
  }
  auto place = [&](const std::string& base) {
    if (auto c = constant(last)) return fmt::format("site {} of {} (counting from 0)", *c, base);
    return fmt::format("the site at step {} of {}", args.back(), base);
  };
  if (table->kind == ExprKind::Name && table->is_local && args.size() == 1) return place(spoken(table->text));
  const check::Symbol* s = global(*table);
  if (!s || !s->decl || args.empty()) return code(e);
  size_t dims = s->decl->dims.size();
  bool region = s->kind == SymKind::Region || s->kind == SymKind::Track;
  if (region && args.size() == dims + 1) {  // a site of a region or track, by its place in it
    std::vector<std::string> outer(args.begin(), args.end() - 1);
    return place(outer.empty() ? "the " + spoken(s->name) : table_entry(*s, outer));
  }
  return table_entry(*s, args);
}

// An entry of a table: "the counters of h", "South's store", "whether h is closed".
std::string Words::table_entry(const check::Symbol& s, const std::vector<std::string>& args) {
  std::string what = spoken(s.name);
  if (s.type == ast::Type::Bool) return "whether " + flag_words(args, "", what);
  bool per_player = s.decl->dims.size() == 1 && s.decl->dims[0].type == "player";
  // A plural name of numbers counts things: "the number of counters in h".
  bool counts = s.type == ast::Type::Int && what.size() > 2 && what.back() == 's' && what[what.size() - 2] != 's' &&
                s.decl->dims.size() == 1 && s.decl->dims[0].type == "site";
  if (counts && args.size() == 1) return fmt::format("the number of {} in {}", what, args[0]);
  if (what.size() > 3 && what.compare(what.size() - 3, 3, " of") == 0 && args.size() == 1)  // `bar_of[p]`
    return "the " + what + " " + args[0];
  if (per_player && simple(args[0])) return args[0] + "'s " + what;
  if (args.size() == 1) return "the " + what + " of " + args[0];
  return "the " + what + " of " + args[0] + " for " + and_list({args.begin() + 1, args.end()});
}

std::string Words::aggregate(const Expr& e) {
  const Expr& domain = *e.kids[0];
  std::string each = domain.kind == ExprKind::Range ? fmt::format("{} from {} to {}", spoken(e.var),
                                                                  value(*domain.kids[0]), value(*domain.kids[1]))
                                                    : fmt::format("{} in {}", spoken(e.var), value(domain));
  if (const Expr* f = ast::loop_filter(e)) each += " where " + holds(*f);
  if (const Expr* w = ast::loop_while(e)) each += ", going on while " + holds(*w);
  const Expr& body = *e.kids[1];
  bool clause = e.agg == lang::Aggregate::Count || e.agg == lang::Aggregate::Any || e.agg == lang::Aggregate::All;
  if (e.agg == lang::Aggregate::Count && body.kind == ExprKind::Bool && body.value) return "the number of " + each;
  return fill(lang::aggregate_words(e.agg), {{"each", each}, {"body", clause ? holds(body) : value(body)}});
}

std::string Words::call(const Expr& e, bool as_statement) {
  std::vector<std::string> args;
  if (e.coll_fn >= 0) {
    args.push_back(e.kids[1]->text);
    return fill(lang::coll_function_words(static_cast<lang::CollFunction>(e.coll_fn)), {{"0", args[0]}});
  }
  if (e.ref >= 0 && e.sym < 0) {
    auto b = static_cast<lang::Builtin>(e.ref);
    for (size_t i = 1; i < e.kids.size(); ++i)  // a search's first argument names a table
      args.push_back(lang::is_search(b) && i == 1 ? spoken(e.kids[i]->text) : value(*e.kids[i]));
    std::map<std::string, std::string> holes;
    for (size_t i = 0; i < args.size(); ++i) holes[std::to_string(i)] = args[i];
    return fill(lang::builtin_info(b).words, holes);
  }
  if (e.sym < 0 || !ck_.syms[static_cast<size_t>(e.sym)].decl) return code(e);
  const ast::Decl& d = *ck_.syms[static_cast<size_t>(e.sym)].decl;
  std::vector<const Expr*> exprs;
  for (size_t i = 1; i < e.kids.size(); ++i) {
    exprs.push_back(e.kids[i].get());
    args.push_back(value(*e.kids[i]));
  }
  std::string phrase = def_phrase(d, exprs, args);
  if (!phrase.empty()) return phrase;
  if (is_library(d)) return code(e);
  if (std::find(terms.begin(), terms.end(), &d) == terms.end()) terms.push_back(&d);
  std::string term = "*" + spoken(d.name) + "*";
  if (args.empty()) return as_statement ? "do " + term : term;
  std::string with = args.size() == 1 ? args[0] : fmt::format("({})", fmt::join(args, "; "));
  return as_statement ? "do " + term + " with " + with : term + " of " + with;
}

std::string Words::holds(const Expr& e) {
  if (auto c = constant(e)) return *c ? "always" : "never";
  switch (e.kind) {
    case ExprKind::Binary: {
      if (e.op == Operator::And || e.op == Operator::Or) {
        auto a = constant(*e.kids[0]), b = constant(*e.kids[1]);
        if (a) return holds(*e.kids[1]);  // the constant side is the one that leaves the other deciding
        if (b) return holds(*e.kids[0]);
        auto side = [&](const Expr& k) {
          bool mixed = k.kind == ExprKind::Binary && (k.op == Operator::And || k.op == Operator::Or) && k.op != e.op;
          return mixed ? "(" + holds(k) + ")" : holds(k);
        };
        return side(*e.kids[0]) + (e.op == Operator::And ? " and " : " or ") + side(*e.kids[1]);
      }
      if (lang::operator_info(e.op).cls == OpClass::Arithmetic) return binary(e) + " is not 0";
      return fill(lang::operator_info(e.op).words, {{"0", value(*e.kids[0])}, {"1", value(*e.kids[1])}});
    }
    case ExprKind::Not: return fails(*e.kids[0]);
    case ExprKind::Index: return flag(e, "").value_or(index(e) + " holds");
    case ExprKind::Name:
      if (const check::Symbol* s = global(e); s && s->kind == SymKind::Param)
        return "the option " + spoken(s->name) + " is on";
      return value(e) + " is true";
    case ExprKind::Cond:
      return fmt::format("{} if {}, else {}", holds(*e.kids[1]), holds(*e.kids[0]), holds(*e.kids[2]));
    case ExprKind::Call: {
      std::string w = call(e, false);
      return w.front() == '*' ? w + " holds" : w;
    }
    default: return value(e);
  }
}

std::string Words::fails(const Expr& k) {
  if (auto c = constant(k)) return *c ? "never" : "always";
  if (k.kind == ExprKind::Binary)
    if (auto n = negated(k.op))
      return fill(lang::operator_info(*n).words, {{"0", value(*k.kids[0])}, {"1", value(*k.kids[1])}});
  if (k.kind == ExprKind::Binary && k.op == Operator::In) return value(*k.kids[0]) + " is not in " + value(*k.kids[1]);
  if (k.kind == ExprKind::Not) return holds(*k.kids[0]);
  if (auto f = flag(k, " not")) return *f;
  if (k.kind == ExprKind::Name)
    if (const check::Symbol* s = global(k); s && s->kind == SymKind::Param)
      return "the option " + spoken(s->name) + " is off";
  if (k.kind == ExprKind::Call) {
    std::string w = call(k, false);
    if (w.front() == '*') return w + " does not hold";
  }
  return "it is not so that " + holds(k);
}

}  // namespace keli::rulebook
