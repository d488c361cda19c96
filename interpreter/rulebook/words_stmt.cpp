// The rulebook's English for statements (one step each, blocks nested), and the pieces of text
// it draws on: the author's comments, definitions' `In words:` phrases, spoken names.
#include <fmt/format.h>

#include <algorithm>

#include "rulebook/words.hpp"

namespace keli::rulebook {
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;

namespace {

// The comment marker that gives a definition its phrase.
constexpr std::string_view kPhraseMarker = "In words:";

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return "";
  size_t b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

std::vector<std::string_view> lines_of(const std::string& text) {
  std::vector<std::string_view> out;
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    out.emplace_back(text.data() + at, nl - at);
    at = nl + 1;
  }
  return out;
}

std::string sentence(std::string s) {
  if (s.empty()) return s;
  s = sentence_case(std::move(s));
  char last = s.back();
  if (last != '.' && last != ':' && last != '!' && last != '?') s += '.';
  return s;
}

}  // namespace

DocComment doc_comment(const SourceSet& src, const Span& at) {
  DocComment out;
  if (!at.valid() || at.line < 2) return out;
  auto lines = lines_of(src.file(at.file).text);
  std::vector<std::string> block;
  for (size_t i = at.line - 1; i-- > 0;) {
    std::string t = trim(lines[i]);
    if (t.empty() || t[0] != '#') break;
    block.insert(block.begin(), trim(std::string_view(t).substr(1)));
  }
  for (const auto& l : block) {
    if (l.rfind(kPhraseMarker, 0) == 0) {
      out.phrase = trim(std::string_view(l).substr(kPhraseMarker.size()));
    } else if (!l.empty()) {
      out.gloss += (out.gloss.empty() ? "" : " ") + l;
    }
  }
  return out;
}

std::string trailing_comment(const SourceSet& src, const Span& at) {
  if (!at.valid()) return "";
  std::string_view line = src.line_text(at);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"') quoted = !quoted;
    if (line[i] == '#' && !quoted) return trim(line.substr(i + 1));
  }
  return "";
}

std::string spoken(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (c == '_') c = ' ';
  return out;
}

std::string fill(const std::string& tmpl, const std::map<std::string, std::string>& values) {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    size_t close = tmpl[i] == '{' ? tmpl.find('}', i) : std::string::npos;
    if (close != std::string::npos) {
      auto it = values.find(tmpl.substr(i + 1, close - i - 1));
      if (it != values.end()) {
        out += it->second;
        i = close;
        continue;
      }
    }
    out += tmpl[i];
  }
  return out;
}

// A library's file (stdlib/, or any file a game imports) has no `game` line: the game file and
// its bases do. The library's definitions speak through their phrases; the game's are terms.
bool Words::is_library(const ast::Decl& d) const {
  for (const auto& m : ck_.modules)
    if (m.file == d.file) return m.game_name.empty();
  return false;
}

// `{if NAME: A|B}` in a phrase: A when the argument for NAME holds, else B (or nothing).
std::string Words::phrase_choices(std::string tmpl, const ast::Decl& def, const std::vector<const ast::Expr*>& args) {
  for (size_t at = tmpl.find("{if "); at != std::string::npos; at = tmpl.find("{if ", at)) {
    size_t colon = tmpl.find(':', at), close = tmpl.find('}', colon == std::string::npos ? at : colon);
    // The alternatives may hold holes of their own: the choice ends at the brace that closes it.
    for (size_t open = tmpl.find('{', colon); open != std::string::npos && open < close;
         open = tmpl.find('{', open + 1))
      close = tmpl.find('}', close + 1);
    if (colon == std::string::npos || close == std::string::npos) break;
    std::string name = trim(std::string_view(tmpl).substr(at + 4, colon - at - 4));
    std::string body = tmpl.substr(colon + 1, close - colon - 1);
    size_t bar = body.find('|');
    std::string yes = trim(body.substr(0, bar)), no = bar == std::string::npos ? "" : trim(body.substr(bar + 1));
    if (!yes.empty() && yes[0] == ',') yes = ", " + trim(yes.substr(1));
    if (!no.empty() && no[0] == ',') no = ", " + trim(no.substr(1));
    const ast::Expr* arg = nullptr;
    for (size_t i = 0; i < def.formals.size() && i < args.size(); ++i)
      if (def.formals[i].name == name) arg = args[i];
    std::string chosen;
    if (!arg) {
      chosen = yes;
    } else if (auto c = constant(*arg)) {
      chosen = *c ? yes : no;
    } else {
      chosen = yes + " if " + holds(*arg) + (no.empty() ? "" : ", else " + no);
    }
    tmpl.replace(at, close - at + 1, chosen);
    at += chosen.size();
  }
  return tmpl;
}

std::string Words::def_phrase(const ast::Decl& def, const std::vector<const ast::Expr*>& exprs,
                              const std::vector<std::string>& args) {
  std::string tmpl = doc_comment(src_, def.span).phrase;
  if (tmpl.empty()) return "";
  tmpl = phrase_choices(tmpl, def, exprs);
  std::map<std::string, std::string> holes;
  for (size_t i = 0; i < def.formals.size(); ++i)
    holes[def.formals[i].name] = i < args.size() ? args[i] : def.formals[i].name;
  return fill(tmpl, holes);
}

std::string Words::event_phrase(const ast::Decl& event, const std::vector<std::string>& args) {
  std::string phrase = def_phrase(event, {}, args);
  if (!phrase.empty()) return phrase;
  std::string what = "the event *" + spoken(event.name) + "* happens";
  if (is_library(event)) fallbacks.push_back({src_.where(event.span), "event " + event.name});
  return args.empty() ? what : what + " (" + fmt::format("{}", fmt::join(args, ", ")) + ")";
}

std::string Words::choice(const ast::MoveParam& p) {
  std::string out = spoken(p.name) + ", one of " + value(*p.domain);
  if (p.domain->kind == ExprKind::Range)
    out =
        fmt::format("{}, a number from {} to {}", spoken(p.name), value(*p.domain->kids[0]), value(*p.domain->kids[1]));
  if (p.filter) out += ", where " + holds(*p.filter);
  if (p.distinct) {
    std::string key = value(*p.distinct);
    if (key.rfind("the ", 0) == 0) key = key.substr(4);
    out += " (choices with the same " + key + " count as one)";
  }
  return out;
}

// A statement's English, a sentence; blocks are the steps below it.
std::string Words::statement(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Let:
      if (s.coll != lang::CollKind::None)
        return fmt::format("Let {} be an empty {} of {}s", spoken(s.name),
                           s.coll == lang::CollKind::List ? "list" : "set",
                           s.elem.type.empty() ? "number" : s.elem.type);
      return fmt::format("Let {} be {}", spoken(s.name), value(*s.exprs[0]));
    case StmtKind::Assign: {
      const ast::Expr& target = *s.exprs[0];
      const ast::Expr& v = *s.exprs[1];
      bool builtin = target.kind == ExprKind::Name && !target.is_local && target.sym < 0 && target.ref >= 0;
      if (builtin && target.text == "mover") {
        if (v.kind == ExprKind::Call && v.kids[0]->text == "next_turn") return "The turn passes to the next player";
        std::string who = value(v);
        return who.find(' ') == std::string::npos ? "It is now " + who + "'s turn" : "The turn goes to " + who;
      }
      if (builtin && target.text == "phase") return "Play goes on in " + value(v);
      if (target.text == "turns_due" && s.assign == lang::Assign::AddTo)
        return "The player to move has an extra turn due";
      if (target.text == "turns_due") return "Any extra turns due are lost";
      if (auto c = constant(v))  // "h is now closed"
        if (auto f = flag(target, *c ? " now" : " no longer")) return *f;
      return fill(lang::assign_words(s.assign), {{"0", value(target)}, {"1", value(v)}});
    }
    case StmtKind::While: return "Repeat while " + holds(*s.exprs[0]) + ":";
    case StmtKind::For: {
      const ast::Expr& d = *s.exprs[0];
      std::string each = d.kind == ExprKind::Range
                             ? fmt::format("{} from {} to {}", spoken(s.name), value(*d.kids[0]), value(*d.kids[1]))
                             : fmt::format("{} in {}", spoken(s.name), value(d));
      if (const ast::Expr* f = ast::loop_filter(s)) each += " where " + holds(*f);
      if (const ast::Expr* w = ast::loop_while(s)) each += ", going on while " + holds(*w);
      return "For each " + each + ":";
    }
    case StmtKind::Return:
      if (s.exprs.empty()) return "Stop here";
      if (s.exprs[0]->type == ast::Type::Bool) {
        if (auto c = constant(*s.exprs[0])) return *c ? "The answer is yes" : "The answer is no";
        return "The answer is yes when " + holds(*s.exprs[0]) + ", no otherwise";
      }
      return "The result is " + value(*s.exprs[0]);
    case StmtKind::Emit: {
      const ast::Expr& c = *s.exprs[0];
      std::vector<std::string> args;
      for (size_t i = 1; i < c.kids.size(); ++i) args.push_back(value(*c.kids[i]));
      if (s.sym < 0 || !ck_.syms[static_cast<size_t>(s.sym)].decl) return "Announce " + code(c);
      return "This counts as: " + event_phrase(*ck_.syms[static_cast<size_t>(s.sym)].decl, args);
    }
    case StmtKind::Note: return "Tell the players: \u201c" + s.text + "\u201d";
    case StmtKind::Add: return fmt::format("Add {} to {}", value(*s.exprs[0]), value(*s.exprs[1]));
    case StmtKind::Remove: return fmt::format("Take {} out of {}", value(*s.exprs[0]), value(*s.exprs[1]));
    case StmtKind::Clear: return fmt::format("Empty {}", value(*s.exprs[0]));
    case StmtKind::Suppose: return "Try the following, then undo every change it made to the game:";
    case StmtKind::Finish: {
      std::vector<std::string> who;
      for (const auto& e : s.exprs) who.push_back(value(*e));
      return fmt::format("{} {} the game, taking the best place still open", fmt::join(who, " and "),
                         who.size() == 1 ? "finishes" : "finish");
    }
    case StmtKind::EndGame: {
      std::string out = "The game ends";
      if (!s.name.empty()) {
        const ast::Decl* by = s.sym >= 0 ? ck_.syms[static_cast<size_t>(s.sym)].decl : nullptr;
        bool term = by && by->kind == ast::DeclKind::Def && !is_library(*by);
        if (term && std::find(terms.begin(), terms.end(), by) == terms.end()) terms.push_back(by);
        out += ": the players not yet placed are ranked by their " +
               (term ? "*" + spoken(s.name) + "*" : spoken(s.name)) + ", most first";
      }
      if (!s.points.empty()) out += "; each scores their " + spoken(s.points) + " in points";
      return out;
    }
    case StmtKind::Call: return call(*s.exprs[0], true);
    case StmtKind::If: break;
  }
  return "";
}

void Words::if_steps(const Stmt& s, int depth, std::vector<Para>& out) {
  if (s.turn_part == ast::TurnPart::EndTurnIf) {
    out.push_back(
        {Para::Kind::Text, depth, "The turn ends: an extra turn due is played now, else the turn passes on.", ""});
    return;
  }
  bool any = false;
  for (size_t i = 0; i < s.exprs.size(); ++i) {
    auto c = constant(*s.exprs[i]);
    if (c && *c == 0) continue;  // ruled out by the options in effect
    if (c) {                     // always so: its steps stand without the condition
      if (any) out.push_back({Para::Kind::Text, depth, "Otherwise:", ""});
      steps(s.blocks[i], any ? depth + 1 : depth, out);
      return;
    }
    out.push_back({Para::Kind::Text, depth, (any ? "Otherwise, if " : "If ") + holds(*s.exprs[i]) + ":", ""});
    steps(s.blocks[i], depth + 1, out);
    any = true;
  }
  if (s.has_else && !s.blocks.back().empty()) {
    if (any) out.push_back({Para::Kind::Text, depth, "Otherwise:", ""});
    steps(s.blocks.back(), any ? depth + 1 : depth, out);
  }
}

void Words::step(const Stmt& s, int depth, std::vector<Para>& out) {
  if (std::string gloss = doc_comment(src_, s.span).gloss; !gloss.empty())
    out.push_back({Para::Kind::Gloss, depth, gloss, ""});
  if (s.kind == StmtKind::If) {
    if_steps(s, depth, out);
    return;
  }
  out.push_back({Para::Kind::Text, depth, sentence(statement(s)), ""});
  if (s.kind == StmtKind::While || s.kind == StmtKind::For || s.kind == StmtKind::Suppose)
    steps(s.blocks[0], depth + 1, out);
}

void Words::steps(const ast::Block& b, int depth, std::vector<Para>& out) {
  for (const auto& s : b)
    if (s) step(*s, depth, out);
}

}  // namespace keli::rulebook
