// The compiler on constants: expressions computed before play, and parameter values (defaults,
// then the caller's settings, checked against the declarations).
#include "compile/compiler_impl.hpp"

#include <fmt/format.h>

#include "lang/arith.hpp"

namespace keli::compile {
using ast::ExprKind;
using check::SymKind;
using diag::Code;

// Constant expressions: literals, parameters, seats, choices, operators.
std::optional<int64_t> Compiler::constant(const ast::Expr& e) {
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Bool: return e.value;
    case ExprKind::Name:
      if (check::is_most_dice(e)) {
        if (most_dice >= 0) return most_dice;
        // Parameters and the dice themselves are computed before the dice are counted.
        diags.report(Code::not_constant, e.span, "'most_dice' is not known yet here: it counts the dice sets' dice",
                     "write the number");
        return std::nullopt;
      }
      if (e.sym >= 0 && !e.is_local) {
        const auto& s = ck.syms[e.sym];
        if (s.kind == SymKind::Param) return values.at(e.sym);
        if (s.kind == SymKind::Seat || s.kind == SymKind::Direction) return s.index;
      }
      return std::nullopt;
    case ExprKind::Neg:
    case ExprKind::Not: {
      auto v = constant(*e.kids[0]);
      return v ? arith(e, lang::apply(e.op, *v)) : std::nullopt;
    }
    case ExprKind::Cond: {
      auto c = constant(*e.kids[0]);
      if (!c) return std::nullopt;
      return constant(*e.kids[*c ? 1 : 2]);
    }
    case ExprKind::Binary: {
      if (e.op == lang::Operator::In) return std::nullopt;
      auto a = constant(*e.kids[0]);
      if (!a) return std::nullopt;
      // `and` / `or` look at their right side only when play would.
      if (e.op == lang::Operator::And && *a == 0) return 0;
      if (e.op == lang::Operator::Or && *a != 0) return 1;
      auto b = constant(*e.kids[1]);
      if (!b) return std::nullopt;
      return arith(e, lang::apply(e.op, *a, *b));
    }
    default: return std::nullopt;
  }
}

// A value computed before play, or its fault reported at the operator as play would report it.
std::optional<int64_t> Compiler::arith(const ast::Expr& e, lang::Result r) {
  if (r.ok()) return r.value;
  diags.report(Code::eval_error, e.span, lang::fault_message(r.fault));
  return std::nullopt;
}

int64_t Compiler::need_constant(const ast::Expr& e, const char* what) {
  size_t before = diags.error_count();
  auto v = constant(e);
  if (!v && diags.error_count() == before) {
    diags.report(Code::not_constant, e.span, fmt::format("{} could not be computed before play", what));
    return 0;
  }
  return v.value_or(0);  // empty after an error already reported (a division by zero)
}

// A constant that is stored: it must fit a 32-bit slot, as a value stored in play must.
int64_t Compiler::stored_constant(const ast::Expr& e, const char* what) {
  int64_t v = need_constant(e, what);
  if (lang::fits_state(v)) return v;
  diags.report(Code::eval_error, e.span, fmt::format("value {} is too large to store", v));
  return 0;
}

// Parameter values: defaults, then the caller's settings (checked against the declarations).
bool Compiler::set_params(const ParamSettings& settings, Program& out) {
  for (auto* d : ck.params) {
    const ast::Expr& v = *d->value;
    if (d->ptype == ast::ParamType::Enum)
      values[d->sym] = v.ref >= 0 ? v.ref : 0;
    else
      values[d->sym] = v.kind == ExprKind::Neg ? -v.kids[0]->value : v.value;
  }
  bool ok = true;
  for (const auto& [name, text] : settings) {
    int sym = ck.lookup(name);
    if (sym < 0 || ck.syms[sym].kind != SymKind::Param) {
      std::vector<std::string> names;
      for (auto* d : ck.params) names.push_back(d->name);
      std::string hint = diag::suggest(name, names);
      if (hint.empty())
        hint = names.empty() ? "this game has no parameters" : fmt::format("parameters: {}", fmt::join(names, ", "));
      diags.report(Code::unknown_param, Span{}, fmt::format("unknown parameter '{}'", name), hint);
      ok = false;
      continue;
    }
    auto v = parse_value(*ck.syms[sym].decl, text);
    if (!v) {
      ok = false;
      continue;
    }
    values[sym] = *v;
  }
  for (auto* d : ck.params) out.params.emplace_back(d->name, value_text(*d, values[d->sym]));
  return ok;
}

std::string Compiler::value_text(const ast::Decl& d, int64_t v) {
  if (d.ptype == ast::ParamType::Bool) return v ? "true" : "false";
  if (d.ptype == ast::ParamType::Enum) return d.choices.at(static_cast<size_t>(v));
  return std::to_string(v);
}

std::optional<int64_t> Compiler::parse_value(const ast::Decl& d, const std::string& text) {
  auto bad = [&](const std::string& allowed) -> std::optional<int64_t> {
    diags.report(Code::bad_param_value, Span{},
                 fmt::format("'{}' is not a valid value for parameter '{}'", text, d.name),
                 fmt::format("allowed: {}", allowed));
    return std::nullopt;
  };
  if (d.ptype == ast::ParamType::Bool) {
    if (text == "true" || text == "yes" || text == "1" || text == "on") return 1;
    if (text == "false" || text == "no" || text == "0" || text == "off") return 0;
    return bad("true or false");
  }
  if (d.ptype == ast::ParamType::Enum) {
    auto it = std::find(d.choices.begin(), d.choices.end(), text);
    if (it == d.choices.end()) return bad(fmt::format("{}", fmt::join(d.choices, ", ")));
    return it - d.choices.begin();
  }
  int64_t v = 0;
  size_t used = 0;
  try {
    v = std::stoll(text, &used);
  } catch (...) {
    used = 0;
  }
  std::string allowed = "a whole number";
  if (d.lo)
    allowed = fmt::format("{}..{}", d.lo->kind == ExprKind::Neg ? -d.lo->kids[0]->value : d.lo->value,
                          d.hi->kind == ExprKind::Neg ? -d.hi->kids[0]->value : d.hi->value);
  if (!d.allowed.empty()) {
    std::vector<std::string> vals;
    for (auto& a : d.allowed) vals.push_back(std::to_string(a->kind == ExprKind::Neg ? -a->kids[0]->value : a->value));
    allowed = fmt::format("{}", fmt::join(vals, ", "));
  }
  if (text.empty() || used != text.size() || v > INT32_MAX || v < INT32_MIN) return bad(allowed);
  if (d.lo) {
    auto lo = constant(*d.lo), hi = constant(*d.hi);
    if (lo && hi && (v < *lo || v > *hi)) return bad(allowed);
  }
  if (!d.allowed.empty()) {
    bool found = false;
    for (auto& a : d.allowed) found = found || constant(*a) == v;
    if (!found) return bad(allowed);
  }
  return v;
}

}  // namespace keli::compile
