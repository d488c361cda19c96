// The rulebook's later sections: the game's own definitions (the terms the rules name), how the
// game ends, the options and what each changes, and the engine's safety bounds kept apart.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <tuple>
#include <set>

#include "rulebook/book.hpp"

namespace keli::rulebook {
using ast::StmtKind;

namespace {

// Every global name an expression or block reads, for "what each option changes".
void names_in(const ast::Expr* e, std::set<int>& out) {
  if (!e) return;
  if (e->kind == ast::ExprKind::Name && !e->is_local && e->sym >= 0) out.insert(e->sym);
  for (const auto& k : e->kids) names_in(k.get(), out);
}
void names_in(const ast::Block& b, std::set<int>& out) {
  for (const auto& s : b) {
    if (!s) continue;
    for (const auto& e : s->exprs) names_in(e.get(), out);
    for (const auto& inner : s->blocks) names_in(inner, out);
  }
}

}  // namespace

BookBuilder::BookBuilder(const GameFile& g, const std::shared_ptr<const compile::Program>& p)
    : ck_(g.checked()), src_(g.sources()), d_(describe::describe(g, p)), words_(ck_, src_, *p) {}

void BookBuilder::definition(Section& s, const ast::Decl& d) {
  std::vector<std::string> formals;
  for (const auto& f : d.formals) formals.push_back(spoken(f.name));
  std::string title = spoken(d.name) + (formals.empty() ? "" : fmt::format(" (of {})", fmt::join(formals, ", ")));
  heading(s, sentence_case(title), "def-" + d.name);
  rules_.push_back({"*" + spoken(d.name) + "*", &d.body, nullptr, &d});
  gloss(s, d.span, 0);
  std::string of = formals.empty() ? "" : fmt::format(" of {}", fmt::join(formals, ", "));
  if (d.value) {
    if (d.value->type == ast::Type::Bool)
      text(s, fmt::format("*{}*{} holds when {}.", spoken(d.name), of, words_.holds(*d.value)));
    else
      text(s, fmt::format("*{}*{} is {}.", spoken(d.name), of, words_.value(*d.value)));
    return;
  }
  text(s, d.type.empty() ? fmt::format("To do *{}*{}:", spoken(d.name), of)
                         : fmt::format("To find *{}*{}:", spoken(d.name), of));
  words_.steps(d.body, 1, s.paras);
}

void BookBuilder::definitions(Section& s) {
  const ast::Module& m = ck_.modules[static_cast<size_t>(ck_.main)];
  if (m.declares_turn_order)  // the game's own turn order, read by the library's next_turn
    for (const ast::Decl* d : ck_.defs)
      if ((d->name == "turn_backwards" || d->name == "skips_turn") && !words_.is_library(*d) &&
          std::find(words_.terms.begin(), words_.terms.end(), d) == words_.terms.end())
        words_.terms.push_back(d);
  // Rendering a definition may name more of them: go on until every named one is written. The
  // ones named but not yet written are taken in the order of the file: which of two terms named in
  // one sentence is met first depends on the compiler (the order it evaluates arguments in), while
  // the set named by then does not, so every build writes the same book.
  auto by_position = [](const ast::Decl* a, const ast::Decl* b) {
    return std::tie(a->span.file, a->span.line, a->span.col) < std::tie(b->span.file, b->span.line, b->span.col);
  };
  for (; defined_ < words_.terms.size(); ++defined_) {
    std::sort(words_.terms.begin() + static_cast<std::ptrdiff_t>(defined_), words_.terms.end(), by_position);
    definition(s, *words_.terms[defined_]);
  }
}

// The steps that end the game or place a player, gathered by rule and by the conditions on the
// way to them: "In *round over*, when ...: other finishes the game; the game ends."
void BookBuilder::ends_in(const ast::Block& b, const std::string& rule, std::vector<std::string>& path, Section& s) {
  std::vector<std::string> here;
  auto flush = [&] {
    if (here.empty()) return;
    std::string when = path.empty() ? "" : ", when " + fmt::format("{}", fmt::join(path, " and "));
    text(s, fmt::format("In {}{}: {}.", rule, when, fmt::join(here, "; ")), 1);
    here.clear();
  };
  for (const auto& st : b) {
    if (!st) continue;
    if (st->kind == StmtKind::EndGame || st->kind == StmtKind::Finish) {
      here.push_back(words_.statement(*st));
      continue;
    }
    flush();
    if (st->kind != StmtKind::If) {
      for (const auto& inner : st->blocks) ends_in(inner, rule, path, s);
      continue;
    }
    std::vector<std::string> earlier;  // the conditions of the branches before: they failed
    bool settled = false;
    for (size_t i = 0; i < st->exprs.size() && !settled; ++i) {
      auto c = words_.constant(*st->exprs[i]);
      if (c && *c == 0) continue;
      settled = c.has_value();
      if (!c) path.push_back(words_.holds(*st->exprs[i]));
      ends_in(st->blocks[i], rule, path, s);
      if (!c) path.pop_back();
      if (!c) earlier.push_back(words_.fails(*st->exprs[i]));
    }
    if (!settled && st->has_else) {
      path.insert(path.end(), earlier.begin(), earlier.end());
      ends_in(st->blocks.back(), rule, path, s);
      path.resize(path.size() - earlier.size());
    }
  }
  flush();
}

void BookBuilder::ending() {
  Section s{"The end of the game", "end", {}};
  text(s, d_.points ? fmt::format("Each player's result is a place and a score in points (from -{} to {}).",
                                  d_.points_limit, d_.points_limit)
                    : "Each player's result is a place: first, second and so on; players may share a place.");
  text(s, "The game ends as the rules above say:");
  for (const auto& r : rules_) {
    std::vector<std::string> path;
    if (r.body) ends_in(*r.body, r.name, path, s);
  }
  book_.sections.push_back(std::move(s));
}

void BookBuilder::options() {
  Section s{"Options", "options", {}};
  std::vector<std::pair<std::string, std::set<int>>> read_by;
  for (const auto& r : rules_) {
    std::set<int> names;
    if (r.body) names_in(*r.body, names);
    names_in(r.guard, names);
    if (r.decl) names_in(r.decl->value.get(), names);
    read_by.emplace_back(r.name, std::move(names));
  }
  for (const auto& p : d_.params) {
    if (p.safety) continue;
    std::string allowed = p.allowed.empty() ? p.range : fmt::format("{}", fmt::join(p.allowed, ", "));
    std::string here = p.value == p.default_value ? "" : fmt::format("; in this book {}", p.value);
    text(s, fmt::format("*{}*: {}. Values {} (usually {}{}).", spoken(p.name), p.doc, allowed, p.default_value, here));
    std::vector<std::string> rules;
    int g = ck_.lookup(p.name);
    for (const auto& [title, names] : read_by)
      if (names.count(g) && std::find(rules.begin(), rules.end(), title) == rules.end()) rules.push_back(title);
    if (!rules.empty()) text(s, fmt::format("It changes: {}.", fmt::join(rules, "; ")), 1);
  }
  if (!s.paras.empty()) book_.sections.push_back(std::move(s));
}

void BookBuilder::safety() {
  Section s{"Safety bounds (the engine's, not rules)", "safety", {}};
  text(s, fmt::format("A game that reaches {} decisions stops there, unfinished{}.", d_.move_limit,
                      d_.limit_declared ? "" : " (Keli's own bound)"));
  for (const auto& p : d_.params)
    if (p.safety) text(s, fmt::format("*{}*: {} ({}; usually {}).", spoken(p.name), p.doc, p.range, p.default_value));
  for (const auto& inv : d_.invariants) text(s, fmt::format("Checked after every step: {}.", inv));
  book_.sections.push_back(std::move(s));
}

Book BookBuilder::build() {
  book_.title = d_.game;
  about();
  equipment();
  setup();
  play();
  triggers();
  Section defs{"Definitions", "definitions", {}};
  definitions(defs);
  ending();
  definitions(defs);  // the end names some more: what players are ranked by
  if (!defs.paras.empty()) book_.sections.push_back(std::move(defs));
  options();
  safety();
  book_.fallbacks = words_.fallbacks;
  return book_;
}

}  // namespace keli::rulebook
