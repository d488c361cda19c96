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
// The most reasons an answer gives, one line each (a tapped rook may have dozens of targets).
constexpr size_t kMaxReasons = 8;
// The most candidates whose tests are tried for one answer: each runs the rule's tests, and a
// crowded site (or text many moves read as) must still be answered at once.
constexpr size_t kMaxExamined = 256;
constexpr int kSaid = -2;  // a candidate whose reason was given for an earlier one

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

// A move as the game writes it, or as the rules call it when its text cannot be shown (a value
// outside its parameter's domain).
std::string shown(runtime::Game& g, const runtime::State& s, const runtime::Move& m) {
  try {
    return g.notation(s, m);
  } catch (const diag::Error&) {
    return g.call_text(m);
  }
}

// The rulebook's anchor of a rule's section (BookBuilder::move names it so).
std::string anchor_of(const compile::Program& p, const compile::Rule& r) {
  return "move-" + p.phases.at(static_cast<size_t>(r.phase)).name + "-" + r.name;
}

std::string phase_of(runtime::Game& g, const runtime::State& s) {
  return spoken(g.program().phases.at(static_cast<size_t>(s[compile::kPhase])).name);
}

// "the rules accept 3 moves now: a, b, c" (or "such as" when `some` are not all of them).
std::string accepted(size_t moves, const std::vector<std::string>& some) {
  return fmt::format("the rules accept {} move{} now{}{}", moves, moves == 1 ? "" : "s",
                     some.empty()          ? ""
                     : moves > some.size() ? ", such as "
                                           : ": ",
                     fmt::join(some, ", "));
}

// Where each piece is (-1: off the board, or the game says no place of its pieces).
std::vector<int> piece_sites(const compile::Program& p, const runtime::State& s) {
  std::vector<int> at(static_cast<size_t>(p.num_pieces), -1);
  if (p.piece_site < 0) return at;
  runtime::State copy = s;
  runtime::Machine m(p);
  m.bind(copy.data());
  for (int pc = 0; pc < p.num_pieces; ++pc) {
    int64_t arg = pc;
    at[static_cast<size_t>(pc)] = static_cast<int>(m.call(p.piece_site, &arg, 1));
  }
  return at;
}

}  // namespace

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

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
  FailedTest out{shown(g, s, m), r.name, anchor_of(p, r), "guard", "", "", "", "", ""};
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

// Each candidate's failed test, into out.failed, and the answer's lines into out.message; false
// when every candidate passes its tests (a legal move written another way).
static bool explain_all(const check::Checked& ck, const SourceSet& src, runtime::Game& g, const runtime::State& s,
                        const std::vector<runtime::Move>& candidates, size_t choices, WhyNot& out) {
  Words words(ck, src, g.program());
  // A candidate failing a test of its parameter i is said once for all the values of the later
  // parameters (East's piece cannot be moved, whichever die).
  std::vector<std::vector<int32_t>> said;
  size_t examined = 0;
  for (const auto& m : candidates) {
    if (++examined > kMaxExamined) break;  // the rest are counted below, not tried
    const compile::Rule& r = g.program().rules.at(m.rule);
    int node = g.why_not(s, m);
    for (size_t i = 0; node >= 0 && i + 1 < r.params.size(); ++i) {
      const auto& rp = r.params[i];
      if (node != rp.written_domain && node != rp.written_filter && node != rp.distinct) continue;
      std::vector<int32_t> key{m.rule, node};
      key.insert(key.end(), m.args, m.args + i + 1);
      if (std::find(said.begin(), said.end(), key) != said.end()) node = kSaid;
      said.push_back(std::move(key));
      break;
    }
    if (node == kSaid) continue;
    if (node < 0 && r.is_otherwise && choices > 0) {  // its tests pass, but other moves are possible
      FailedTest f{shown(g, s, m), r.name, anchor_of(g.program(), r), "otherwise", "", src.where(r.span), "", "", ""};
      f.message = fmt::format(
          "'{}' is not legal now: it is played only when no other move is possible, and {} {} "
          "({})",
          f.move, choices, choices == 1 ? "is" : "are", f.where);
      out.failed.push_back(f);
    } else if (node >= 0) {
      out.failed.push_back(explain(ck, src, words, g, s, m, node));
    }
  }
  // A candidate dropped as the same choice as an earlier one says nothing when another tells why;
  // alike dice give alike lines, said once; past kMaxReasons lines, the rest are counted.
  bool reasons = std::any_of(out.failed.begin(), out.failed.end(), [](const auto& f) { return f.test != "distinct"; });
  std::vector<std::string> lines;
  for (const auto& f : out.failed)
    if ((!reasons || f.test != "distinct") && std::find(lines.begin(), lines.end(), f.message) == lines.end())
      lines.push_back(f.message);
  if (lines.size() > kMaxReasons) {
    const size_t more = lines.size() - kMaxReasons;
    lines.resize(kMaxReasons);
    lines.push_back(fmt::format("and {} more move{} like these", more, more == 1 ? "" : "s"));
  }
  if (candidates.size() > kMaxExamined)
    lines.push_back(fmt::format("({} more moves that read so were not tried)", candidates.size() - kMaxExamined));
  out.message = fmt::format("{}", fmt::join(lines, "\n"));
  return !out.failed.empty();
}

// A rule whose first parameter is a site (or a piece) that cannot be this one (or one on it): no
// candidate starts here, since candidates are drawn from the domains; said as the domain test that
// fails. False when no rule of the phase starts with such a parameter.
static bool outside_domain(const check::Checked& ck, const SourceSet& src, runtime::Game& g, const runtime::State& s,
                           int site, const std::vector<int>& here, WhyNot& out) {
  const compile::Program& p = g.program();
  const compile::PhaseInfo& ph = p.phases.at(static_cast<size_t>(s[compile::kPhase]));
  std::vector<int> rules = ph.rules;
  if (ph.otherwise >= 0) rules.push_back(ph.otherwise);
  Words words(ck, src, p);
  std::vector<std::string> lines;
  for (int rid : rules) {
    const compile::Rule& r = p.rules.at(static_cast<size_t>(rid));
    if (r.params.empty()) continue;
    const bool is_site = r.params[0].kind == lang::ValueKind::Site;
    if (!is_site && (r.params[0].kind != lang::ValueKind::Piece || here.empty())) continue;
    runtime::Move m;
    m.rule = static_cast<int16_t>(rid);
    m.nargs = static_cast<uint8_t>(r.params.size());
    m.args[0] = is_site ? site : here[0];  // the later ones are never read: the first test fails
    if (g.why_not(s, m) != r.params[0].written_domain) continue;
    FailedTest f = explain(ck, src, words, g, s, m, r.params[0].written_domain);
    f.move = g.call_text(m);  // its notation may not read a value outside the domain
    f.message = fmt::format("{} cannot start {} {}: {} must be one of {}, and {} is not ({})", spoken(r.name),
                            is_site ? "at" : "with the piece on", p.sites.at(static_cast<size_t>(site)).label, f.param,
                            f.condition, is_site ? "it" : "that piece", f.where);
    lines.push_back(f.message);
    out.failed.push_back(std::move(f));
  }
  out.message = fmt::format("{}", fmt::join(lines, "\n"));
  return !lines.empty();
}

// The answer when no player's move can be made at all; false while one can.
static bool closed(runtime::Game& g, const runtime::State& s, WhyNot& out) {
  if (g.over(s))
    out.message = "the game is over: no move is legal";
  else if (g.chance(s))
    out.message = "the dice are to be thrown now: no player's move is legal";
  return g.over(s) || g.chance(s);
}

WhyNot why_not(const check::Checked& ck, const SourceSet& src, runtime::Game& g, const runtime::State& s,
               const std::string& text) {
  WhyNot out;
  if (closed(g, s, out)) return out;
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  auto choices = g.choices(s, legal);
  for (const auto& c : choices)
    if (same_text(c.text, text) || same_text(g.call_text(c.move), text)) {
      out.legal = true;
      out.message = fmt::format("'{}' is legal now", c.text);
      return out;
    }
  if (explain_all(ck, src, g, s, g.read_as(s, text, same_text, kReadTries), choices.size(), out)) return out;
  std::vector<std::pair<size_t, std::string>> near;
  for (const auto& c : choices) near.emplace_back(edit_distance(lower(text), lower(c.text)), c.text);
  std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < near.size() && i < kMaxInstead; ++i) out.instead.push_back(near[i].second);
  out.message = fmt::format("no rule of the {} phase reads '{}' here; {}", phase_of(g, s), text,
                            accepted(choices.size(), out.instead));
  return out;
}

WhyNot why_not_at(const check::Checked& ck, const SourceSet& src, runtime::Game& g, const runtime::State& s, int site) {
  WhyNot out;
  const compile::Program& p = g.program();
  if (site < 0 || site >= p.num_sites) {
    out.message = fmt::format("there is no site {} on this board", site);
    return out;
  }
  if (closed(g, s, out)) return out;
  const std::string label = p.sites[static_cast<size_t>(site)].label;
  const std::vector<int> at = piece_sites(p, s);
  // The pieces on the site, one of each kind: pieces alike (same seat, same place, same in every
  // table) stand for each other, so a tap on sixty pieces waiting in the centre tries four.
  std::vector<int> here;
  for (size_t pc = 0; pc < at.size(); ++pc)
    if (at[pc] == site && g.stand_in(s, static_cast<int>(pc)) == static_cast<int>(pc))
      here.push_back(static_cast<int>(pc));
  // A move starts at the site when its first site or piece parameter names it or a piece on it.
  auto starts_here = [&](const runtime::Move& m) {
    const compile::Rule& r = p.rules.at(m.rule);
    for (int i = 0; i < m.nargs && i < static_cast<int>(r.params.size()); ++i) {
      if (r.params[i].kind == lang::ValueKind::Site) return m.args[i] == site;
      if (r.params[i].kind == lang::ValueKind::Piece)
        return std::find(here.begin(), here.end(), m.args[i]) != here.end();
    }
    return false;
  };
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  auto choices = g.choices(s, legal);
  std::vector<std::string> from_here;
  for (const auto& c : choices)
    if (starts_here(c.move)) from_here.push_back("'" + c.text + "'");
  if (!from_here.empty()) {
    out.legal = true;
    out.message = fmt::format("{} {} legal now", fmt::join(from_here, ", "), from_here.size() == 1 ? "is" : "are");
    return out;
  }
  if (explain_all(ck, src, g, s, g.candidates(s, starts_here, kReadTries), choices.size(), out)) return out;
  if (outside_domain(ck, src, g, s, site, here, out)) return out;
  for (size_t i = 0; i < choices.size() && i < kMaxInstead; ++i) out.instead.push_back(choices[i].text);
  const std::string why = p.piece_site >= 0 && here.empty() ? fmt::format("no piece is on {}", label)
                          : here.empty()
                              ? fmt::format("no rule of the {} phase starts at {}", phase_of(g, s), label)
                              : fmt::format("no rule of the {} phase moves a piece on {}", phase_of(g, s), label);
  out.message = fmt::format("{}; {}", why, accepted(choices.size(), out.instead));
  return out;
}

}  // namespace keli::rulebook
