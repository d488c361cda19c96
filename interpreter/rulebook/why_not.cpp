// "Why not?" (why_not.hpp): the candidates a text reads as, the test each fails, said in words.
#include "rulebook/why_not.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "rulebook/words.hpp"

namespace keli::rulebook {

namespace {

// The most moves an answer offers instead of a text no rule reads, and the parameter values tried
// while reading it (runtime::Game::read_as).
constexpr size_t kMaxInstead = 8;
constexpr int64_t kReadTries = 100000;

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool same_text(const std::string& a, const std::string& b) { return lower(a) == lower(b); }

bool same_span(const Span& a, const Span& b) {
  return a.file == b.file && a.line == b.line && a.col == b.col && a.len == b.len;
}

const ast::Expr* find_expr(const ast::Expr* e, const Span& at) {
  if (!e) return nullptr;
  if (same_span(e->span, at)) return e;
  for (const auto& k : e->kids)
    if (const ast::Expr* f = find_expr(k.get(), at)) return f;
  return nullptr;
}

const ast::Expr* find_in_block(const ast::Block& b, const Span& at) {
  for (const auto& s : b) {
    if (!s) continue;
    for (const auto& e : s->exprs)
      if (const ast::Expr* f = find_expr(e.get(), at)) return f;
    for (const auto& inner : s->blocks)
      if (const ast::Expr* f = find_in_block(inner, at)) return f;
  }
  return nullptr;
}

// The expression of the checked program written at `at` (a test the optimizer kept, or one of a
// definition it inlined), or null.
const ast::Expr* find_in(const check::Checked& ck, const Span& at) {
  for (const auto& m : ck.modules)
    for (const auto& d : m.decls) {
      for (const ast::Expr* e : {d.value.get(), d.guard.get()})
        if (const ast::Expr* f = find_expr(e, at)) return f;
      if (const ast::Expr* f = find_in_block(d.body, at)) return f;
      for (const auto& mv : d.moves) {
        if (const ast::Expr* f = find_expr(mv.guard.get(), at)) return f;
        for (const auto& p : mv.params)
          for (const ast::Expr* e : {p.domain.get(), p.filter.get(), p.distinct.get()})
            if (const ast::Expr* f = find_expr(e, at)) return f;
      }
    }
  return nullptr;
}

lang::ValueKind kind_of(ast::Type t) {
  switch (lang::without_none(t)) {
    case ast::Type::Site: return lang::ValueKind::Site;
    case ast::Type::Player: return lang::ValueKind::Player;
    case ast::Type::Piece: return lang::ValueKind::Piece;
    case ast::Type::Bool: return lang::ValueKind::Bool;
    case ast::Type::Direction: return lang::ValueKind::Direction;
    default: return lang::ValueKind::Int;
  }
}

}  // namespace

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// One candidate's failed test, said in words.
static FailedTest explain(const check::Checked& ck, const SourceSet& src, Words& words, runtime::Game& g,
                          const runtime::State& s, const runtime::Move& m, int node) {
  const compile::Program& p = g.program();
  const compile::Rule& r = p.rules.at(m.rule);
  FailedTest out{g.notation(s, m), r.name, "guard", "", "", "", "", ""};
  int param = -1;
  for (size_t i = 0; i < r.params.size(); ++i) {
    if (node == r.params[i].written_domain) out.test = "domain", param = static_cast<int>(i);
    if (node == r.params[i].written_filter) out.test = "where", param = static_cast<int>(i);
    if (node == r.params[i].distinct) out.test = "distinct", param = static_cast<int>(i);
  }
  if (param >= 0) out.param = spoken(r.params[static_cast<size_t>(param)].name);
  runtime::Game::FailedPart part =
      out.test == "domain" ? runtime::Game::FailedPart{node, {}} : g.failed_part(s, m, node);
  const Span& at = p.spans.at(static_cast<size_t>(part.node));
  out.where = src.where(at);
  const ast::Expr* e = find_in(ck, at);
  if (e && (out.test == "domain" || out.test == "distinct"))
    out.condition = words.value(*e);
  else if (e)
    out.condition = words.holds(*e);
  else
    out.condition = std::string(src.line_text(at));
  // The values the test read: a comparison's two sides, or the arguments of a definition's call.
  const size_t first = e && e->kind == ast::ExprKind::Call ? 1 : 0;
  if (e && (e->kind == ast::ExprKind::Binary || e->kind == ast::ExprKind::Call) &&
      part.sides.size() + first == e->kids.size()) {
    std::vector<std::string> read;
    for (size_t i = first; i < e->kids.size(); ++i)
      if (!words.constant(*e->kids[i]))
        read.push_back(fmt::format("{} is {}", words.value(*e->kids[i]),
                                   g.value_text(s, kind_of(e->kids[i]->type), part.sides[i - first])));
    out.values = fmt::format("{}", fmt::join(read, " and "));
  }
  // Plain text: the rulebook's term marks (`*can step*`) are left out.
  for (std::string* t : {&out.condition, &out.values}) t->erase(std::remove(t->begin(), t->end(), '*'), t->end());
  std::string here = out.values.empty() ? "" : "; here " + out.values;
  if (out.test == "domain") {
    out.message = fmt::format("'{}' is not legal now: {} cannot be {}, it must be one of {} ({})", out.move, out.param,
                              g.value_text(s, r.params[static_cast<size_t>(param)].kind, m.args[param]), out.condition,
                              out.where);
  } else if (out.test == "where") {
    out.message = fmt::format("'{}' is not legal now: {} must be such that {} ({}){}", out.move, out.param,
                              out.condition, out.where, here);
  } else if (out.test == "distinct") {
    std::string key = out.condition.rfind("the ", 0) == 0 ? out.condition.substr(4) : out.condition;
    out.message = fmt::format(
        "'{}' is the same choice as a move listed before it: choices with the same {} count "
        "as one ({})",
        out.move, key, out.where);
  } else {
    out.message = fmt::format("'{}' is not legal now: it is allowed only when {} ({}){}", out.move, out.condition,
                              out.where, here);
  }
  return out;
}

WhyNot why_not(const check::Checked& ck, const SourceSet& src, runtime::Game& g, const runtime::State& s,
               const std::string& text) {
  WhyNot out;
  if (g.over(s)) {
    out.message = "the game is over: no move is legal";
    return out;
  }
  if (g.chance(s)) {
    out.message = "the dice are to be thrown now: no player's move is legal";
    return out;
  }
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  auto choices = g.choices(s, legal);
  for (const auto& c : choices)
    if (same_text(c.text, text) || same_text(g.call_text(c.move), text)) {
      out.legal = true;
      out.message = fmt::format("'{}' is legal now", c.text);
      return out;
    }
  Words words(ck, src, g.program());
  std::vector<std::string> lines;
  for (const auto& m : g.read_as(s, text, same_text, kReadTries)) {
    const compile::Rule& r = g.program().rules.at(m.rule);
    int node = g.why_not(s, m);
    if (node < 0 && r.is_otherwise && !legal.empty()) {  // its tests pass, but other moves are possible
      FailedTest f{g.notation(s, m), r.name, "otherwise", "", src.where(r.span), "", "", ""};
      f.message = fmt::format(
          "'{}' is not legal now: it is played only when no other move is possible, and {} {} "
          "({})",
          f.move, choices.size(), choices.size() == 1 ? "is" : "are", f.where);
      out.failed.push_back(f);
    } else if (node >= 0) {
      out.failed.push_back(explain(ck, src, words, g, s, m, node));
    } else {
      continue;  // it passes every test: a legal move written another way
    }
    if (std::find(lines.begin(), lines.end(), out.failed.back().message) == lines.end())  // alike dice
      lines.push_back(out.failed.back().message);
  }
  // A candidate dropped as the same choice as an earlier one says nothing when another tells why.
  bool reasons = std::any_of(out.failed.begin(), out.failed.end(), [](const auto& f) { return f.test != "distinct"; });
  if (reasons) {
    lines.clear();
    for (const auto& f : out.failed)
      if (f.test != "distinct" && std::find(lines.begin(), lines.end(), f.message) == lines.end())
        lines.push_back(f.message);
  }
  if (!out.failed.empty()) {
    out.message = fmt::format("{}", fmt::join(lines, "\n"));
    return out;
  }
  std::vector<std::pair<size_t, std::string>> near;
  for (const auto& c : choices) near.emplace_back(edit_distance(lower(text), lower(c.text)), c.text);
  std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < near.size() && i < kMaxInstead; ++i) out.instead.push_back(near[i].second);
  const std::string phase = g.program().phases.at(static_cast<size_t>(s[compile::kPhase])).name;
  out.message = fmt::format("no rule of the {} phase reads '{}' here; the rules accept {} move{} now{}{}",
                            spoken(phase), text, choices.size(), choices.size() == 1 ? "" : "s",
                            out.instead.empty()                   ? ""
                            : choices.size() > out.instead.size() ? ", such as "
                                                                  : ": ",
                            fmt::join(out.instead, ", "));
  return out;
}

}  // namespace keli::rulebook
