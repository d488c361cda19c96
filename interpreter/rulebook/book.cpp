// The rulebook's first sections: provenance, what a variant changes, equipment, set-up, the
// phases with their moves, and the triggers. book_more.cpp adds the rest.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "describe/describe.hpp"
#include "rulebook/book.hpp"

namespace keli::rulebook {
using Kind = Para::Kind;

void BookBuilder::text(Section& s, std::string t, int depth) {
  if (!t.empty()) s.paras.push_back({Kind::Text, depth, std::move(t), ""});
}

void BookBuilder::gloss(Section& s, const Span& at, int depth) {
  if (std::string g = doc_comment(src_, at).gloss; !g.empty()) s.paras.push_back({Kind::Gloss, depth, g, ""});
}

void BookBuilder::heading(Section& s, const std::string& title, const std::string& anchor) {
  s.paras.push_back({Kind::Heading, 0, title, anchor});
}

void BookBuilder::about() {
  Section s{"About the game", "about", {}};
  const ast::Module& m = ck_.modules[static_cast<size_t>(ck_.main)];
  gloss(s, m.game_span, 0);
  for (const auto& [key, value] : d_.about) text(s, fmt::format("{}: {}.", spoken(key), value));
  if (d_.variant) text(s, fmt::format("A variant of {} ({}).", d_.base_game, d_.base_file));
  book_.sections.push_back(std::move(s));
  if (d_.variant && !d_.changes.empty()) {
    Section c{"What this variant changes", "changes", {}};
    for (const auto& ch : d_.changes) {
      if (ch.action == "sets")
        text(c, fmt::format("The option {} is {} instead of {}.", spoken(ch.name), ch.to, ch.from), 1);
      else
        text(c,
             fmt::format("It {} the {}{} of {} (below).", ch.action, spoken(ch.kind),
                         ch.name.empty() ? "" : " " + spoken(ch.name), d_.base_game),
             1);
    }
    book_.sections.push_back(std::move(c));
  }
}

void BookBuilder::players(Section& s) {
  std::string seats = fmt::format("{}", fmt::join(d_.seats, ", "));
  if (d_.seats.size() > 1) {
    auto at = seats.rfind(", ");
    seats = seats.substr(0, at) + " and " + seats.substr(at + 2);
  }
  text(s, fmt::format("{} {}: {}, who play in that order.", d_.seats.size(),
                      d_.seats.size() == 1 ? "player" : "players", seats));
  for (const auto& team : d_.teams) text(s, fmt::format("{} play as partners.", fmt::join(team, " and ")), 1);
  if (d_.pieces > 0) {
    std::string each;
    if (!d_.pieces_per_seat.empty()) {
      std::vector<std::string> parts;
      for (size_t i = 0; i < d_.pieces_per_seat.size() && i < d_.seats.size(); ++i)
        if (d_.pieces_per_seat[i] > 0) parts.push_back(fmt::format("{} {}", d_.seats[i], d_.pieces_per_seat[i]));
      if (!parts.empty()) each = fmt::format(" ({})", fmt::join(parts, ", "));
    }
    text(s, fmt::format("{} pieces{}.", d_.pieces, each));
  }
}

void BookBuilder::board(Section& s) {
  if (!ck_.board) return;
  gloss(s, ck_.board->span, 0);
  rules_.push_back({"the board", &ck_.board->body, nullptr, ck_.board});
  if (ck_.board->value) {
    text(s, fmt::format("The board: {}, {} sites in all.", words_.value(*ck_.board->value), d_.sites));
  } else {
    text(s, fmt::format("The board has {} sites, laid out as follows:", d_.sites));
    words_.steps(ck_.board->body, 1, s.paras);
  }
  for (const auto& r : d_.regions) {
    if (r.sizes.empty()) continue;
    bool same = std::all_of(r.sizes.begin(), r.sizes.end(), [&](int n) { return n == r.sizes[0]; });
    std::string what = r.track ? "track" : "region";
    std::string many = r.dims == "per player" ? fmt::format("one {} for each player", what)
                                              : fmt::format("{} {}s ({})", r.sizes.size(), what, r.dims);
    std::string shape =
        r.sizes.size() == 1 ? fmt::format("a {} of {} sites", what, r.sizes[0])
        : same              ? fmt::format("{}, {} sites each", many, r.sizes[0])
               : fmt::format("{}, of up to {} sites", many, *std::max_element(r.sizes.begin(), r.sizes.end()));
    text(s, fmt::format("The {}: {}.", spoken(r.name), shape), 1);
  }
}

void BookBuilder::dice(Section& s) {
  for (const auto& dc : d_.dice) {
    std::vector<std::string> dies;
    for (const auto& f : dc.faces) dies.push_back(fmt::format("faces {}", describe::join_ints(f)));
    text(s, fmt::format("The {} dice: {} {}, {}.", spoken(dc.name), dc.faces.size(),
                        dc.faces.size() == 1 ? "die" : "dice", fmt::join(dies, "; ")));
    std::vector<std::string> odds;
    for (const auto& [total, weight] : dc.totals)
      odds.push_back(fmt::format("{} with {}", total, describe::fraction(weight, dc.total_weight)));
    if (dc.faces.size() > 1)
      text(s, fmt::format("The throw's total is {}.", fmt::join(odds, ", ")), 1);
    else
      text(s, fmt::format("It shows {}.", fmt::join(odds, ", ")), 1);
  }
}

void BookBuilder::equipment() {
  Section s{"Players and equipment", "equipment", {}};
  players(s);
  board(s);
  dice(s);
  for (const ast::Decl* v : ck_.vars) {
    std::string note = trailing_comment(src_, v->span);
    if (note.empty()) note = doc_comment(src_, v->span).gloss;
    if (!note.empty()) text(s, fmt::format("Kept during play, {}: {}.", spoken(v->name), note), 1);
  }
  book_.sections.push_back(std::move(s));
}

void BookBuilder::setup() {
  Section s{"Set-up", "setup", {}};
  for (const ast::Decl* v : ck_.vars) {
    if (!v->value) continue;
    auto c = words_.constant(*v->value);
    if (c && *c == 0) continue;  // every table starts at 0 / false / none unless it says otherwise
    std::string where = v->dims.empty()           ? ""
                        : v->dims[0].type.empty() ? " at each place"
                                                  : " for each " + v->dims[0].type;
    text(s, fmt::format("The {}{} starts at {}.", spoken(v->name), where, words_.value(*v->value)));
  }
  for (const ast::Decl* st : ck_.setups) {
    rules_.push_back({"the set-up", &st->body, nullptr, st});
    gloss(s, st->span, 0);
    words_.steps(st->body, 0, s.paras);
  }
  if (!ck_.phases.empty()) text(s, fmt::format("Play begins in the {} phase.", spoken(ck_.phases[0]->name)));
  book_.sections.push_back(std::move(s));
}

void BookBuilder::move(Section& s, const ast::Move& m, const std::string& phase) {
  std::string title = m.is_otherwise ? "When no move is possible: " + spoken(m.name) : "Move: " + spoken(m.name);
  heading(s, title, "move-" + phase + "-" + m.name);
  rules_.push_back({"*" + spoken(m.name) + "*", &m.body, m.guard.get(), nullptr});
  gloss(s, m.span, 0);
  std::vector<std::string> chosen;
  for (const auto& p : m.params) chosen.push_back(words_.choice(p));
  if (!chosen.empty()) text(s, fmt::format("The player to move chooses {}.", fmt::join(chosen, "; then ")));
  if (m.guard) text(s, "Allowed only when " + words_.holds(*m.guard) + ".");
  if (m.is_otherwise) text(s, "This happens by itself when the player to move has no other move in this phase.");
  words_.steps(m.body, 1, s.paras);
}

void BookBuilder::play() {
  Section s{"Play", "play", {}};
  const ast::Module& m = ck_.modules[static_cast<size_t>(ck_.main)];
  text(s, "The mover is the player whose turn it is.");
  if (m.uses_extra_turns) text(s, "A player who has an extra turn due plays again before the turn passes on.");
  for (const ast::Decl* ph : ck_.phases) {
    heading(s, "The " + spoken(ph->name) + " phase", "phase-" + ph->name);
    gloss(s, ph->span, 0);
    if (ph->value) {
      rules_.push_back({"the " + spoken(ph->name) + " phase", &ph->body, nullptr, ph});
      text(s, fmt::format("This phase opens with a throw of {}; then:", words_.value(*ph->value)));
      words_.steps(ph->body, 1, s.paras);
    }
    for (const auto& mv : ph->moves) move(s, mv, ph->name);
  }
  book_.sections.push_back(std::move(s));
}

void BookBuilder::triggers() {
  Section s{"Triggers", "triggers", {}};
  std::map<std::string, int> handlers_of;
  for (const ast::Decl* h : ck_.handlers) {
    int ev = ck_.lookup(h->name);
    if (ev < 0 || !ck_.syms[static_cast<size_t>(ev)].decl) continue;
    const ast::Decl& event = *ck_.syms[static_cast<size_t>(ev)].decl;
    std::vector<std::string> args;
    for (size_t i = 0; i < event.formals.size(); ++i)
      args.push_back(i < h->formals.size() ? spoken(h->formals[i].name) : "some " + spoken(event.formals[i].name));
    std::string title = "Whenever " + words_.event_phrase(event, args);
    int nth = ++handlers_of[h->name];  // a second handler of an event: on-dropped-2
    heading(s, sentence_case(title), "on-" + h->name + (nth > 1 ? "-" + std::to_string(nth) : ""));
    rules_.push_back({"the trigger “" + title + "”", &h->body, h->guard.get(), nullptr});
    gloss(s, h->span, 0);
    if (h->guard) text(s, "Only when " + words_.holds(*h->guard) + ":");
    words_.steps(h->body, 1, s.paras);
  }
  if (!s.paras.empty()) book_.sections.push_back(std::move(s));
}

std::string sentence_case(std::string s) {
  size_t first = s.rfind('*', 0) == 0 ? 1 : 0;  // a sentence may open with a term
  if (s.size() > first && s[first] >= 'a' && s[first] <= 'z') s[first] = static_cast<char>(s[first] - 'a' + 'A');
  return s;
}

Book build(const GameFile& g, const std::shared_ptr<const compile::Program>& p) {
  BookBuilder b(g, p);
  return b.build();
}

}  // namespace keli::rulebook
