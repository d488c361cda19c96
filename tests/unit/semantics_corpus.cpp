// Reading a semantics case file and writing the games that evaluate one of its groups before play.
// Positions come from the checked AST (declarations, rules, statements start where their spans
// say); extents from the text, by matching braces outside comments and strings.
#include "semantics_corpus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <regex>

namespace keli::test::semantics {
namespace {
using check::SymKind;

// Byte offsets of the start of each line, for spans' 1-based line and column.
struct Lines {
  std::vector<size_t> starts{0};
  explicit Lines(const std::string& text) {
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts.push_back(i + 1);
  }
  size_t offset(const Span& s) const { return starts.at(s.line - 1) + s.col - 1; }
  int line_of(size_t offset) const {
    return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
  }
};

// The next `want` at or after `from` outside comments and strings, or npos.
size_t find_code(const std::string& t, size_t from, char want) {
  for (size_t i = from; i < t.size(); ++i) {
    if (t[i] == want) return i;
    if (t[i] == '#') {
      while (i < t.size() && t[i] != '\n') ++i;
    } else if (t[i] == '"') {
      for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\') ++i;
    }
  }
  return std::string::npos;
}

// The `}` matching the `{` at `open`, or npos.
size_t match_brace(const std::string& t, size_t open) {
  int depth = 0;
  for (size_t i = open; i < t.size(); ++i) {
    size_t next = std::min(find_code(t, i, '{'), find_code(t, i, '}'));
    if (next == std::string::npos) return next;
    i = next;
    depth += t[i] == '{' ? 1 : -1;
    if (depth == 0) return i;
  }
  return std::string::npos;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Code on one line: comments removed, lines joined with spaces.
std::string one_line(const std::string& code) {
  std::string out;
  for (size_t i = 0; i < code.size(); ++i) {
    size_t hash = find_code(code, i, '#');
    size_t stop = std::min(hash, code.size());
    for (; i < stop; ++i) out += code[i] == '\n' || code[i] == '\r' ? ' ' : code[i];
    while (i < code.size() && code[i] != '\n') ++i;
    out += ' ';
  }
  return trim(out);
}

// The end of the code on the line holding `from` (before a comment, trailing blanks dropped).
size_t code_end(const std::string& t, size_t from) {
  size_t nl = t.find('\n', from), hash = find_code(t, from, '#');
  size_t e = std::min(nl == std::string::npos ? t.size() : nl, hash);
  while (e > from && (t[e - 1] == ' ' || t[e - 1] == '\t' || t[e - 1] == '\r')) --e;
  return e;
}

void collect_assigned(const ast::Block& b, const check::Checked& ck, std::vector<std::string>& out) {
  for (const auto& s : b) {
    if (s->kind == ast::StmtKind::Assign) {
      const ast::Expr* root = s->exprs[0].get();
      while (root->kind == ast::ExprKind::Index) root = root->kids[0].get();
      if (!root->is_local && root->sym >= 0 && ck.syms[root->sym].kind == SymKind::Var &&
          std::find(out.begin(), out.end(), root->text) == out.end())
        out.push_back(root->text);
    }
    for (const auto& inner : s->blocks) collect_assigned(inner, ck, out);
  }
}

std::optional<Kind> kind_of(const std::string& name) {
  if (name.rfind("constant_", 0) == 0) return Kind::Constant;
  if (name.rfind("board_", 0) == 0) return Kind::Board;
  if (name.rfind("play_", 0) == 0) return Kind::Play;
  return std::nullopt;
}

// `NAME = EXPR` statements of a constant group; EXPR runs to the next statement (or the `}`).
void read_assignments(CaseFile& f, const Lines& lines, const ast::Block& body, Group& g) {
  for (size_t i = 0; i < body.size(); ++i) {
    const ast::Stmt& s = *body[i];
    const ast::Expr* target = s.kind == ast::StmtKind::Assign ? s.exprs[0].get() : nullptr;
    if (!target || s.assign != lang::Assign::Set || target->kind != ast::ExprKind::Name || target->is_local) {
      f.problems.push_back(
          fmt::format("line {}: a constant group holds only statements `VARIABLE = EXPRESSION`", s.span.line));
      continue;
    }
    for (const auto& a : g.assignments)
      if (a.var == target->text)
        f.problems.push_back(fmt::format("line {}: '{}' is assigned twice in group '{}'", s.span.line, a.var, g.name));
    size_t eq = find_code(f.text, lines.offset(s.span), '=');
    size_t stop = i + 1 < body.size() ? lines.offset(body[i + 1]->span) : g.body_close;
    g.assignments.push_back({target->text, one_line(f.text.substr(eq + 1, stop - eq - 1))});
  }
}

void add_group(CaseFile& f, const Lines& lines, Group g, const ast::Block& body) {
  g.body_open = find_code(f.text, g.begin, '{');
  g.body_close = g.body_open == std::string::npos ? g.body_open : match_brace(f.text, g.body_open);
  if (g.body_close == std::string::npos) {
    f.problems.push_back(fmt::format("group '{}': its body's braces do not match", g.name));
    return;
  }
  g.end = g.body_close + 1;
  g.first_line = lines.line_of(g.begin);
  g.last_line = lines.line_of(g.body_close);
  collect_assigned(body, f.game->checked(), g.assigned);
  if (g.kind == Kind::Constant) read_assignments(f, lines, body, g);
  f.groups.push_back(std::move(g));
}

// Groups are the rules named constant_*, board_* or play_* and the chance phases named play_*.
void read_groups(CaseFile& f, const Lines& lines) {
  const check::Checked& ck = f.game->checked();
  int main = ck.modules[ck.main].file;
  for (ast::Decl* ph : ck.phases) {
    if (ph->file != main) continue;
    if (ph->value) {
      auto k = kind_of(ph->name);
      if (!k) continue;
      if (*k != Kind::Play)
        f.problems.push_back(fmt::format("chance phase '{}': throws happen in play, name it play_*", ph->name));
      Group g;
      g.name = g.phase = ph->name;
      g.chance = true;
      g.begin = f.text.rfind("phase", lines.offset(ph->name_span) - 1);
      add_group(f, lines, std::move(g), ph->body);
      continue;
    }
    for (const auto& m : ph->moves) {
      auto k = kind_of(m.name);
      if (!k || m.is_otherwise) continue;
      if (!m.params.empty() || m.guard)
        f.problems.push_back(
            fmt::format("line {}: rule '{}' of a group takes no parameters and has no guard", m.span.line, m.name));
      Group g;
      g.name = m.name;
      g.kind = *k;
      g.phase = ph->name;
      g.begin = f.text.rfind("move", lines.offset(m.span) - 1);
      add_group(f, lines, std::move(g), m.body);
    }
  }
}

void read_vars(CaseFile& f, const Lines& lines) {
  const check::Checked& ck = f.game->checked();
  static const std::regex per(R"(\bper\b)");
  for (ast::Decl* d : ck.vars) {
    if (d->file != ck.modules[ck.main].file) continue;
    VarDecl v;
    v.name = d->name;
    v.type = d->type;
    v.begin = f.text.rfind("var", lines.offset(d->name_span) - 1);
    v.end = code_end(f.text, v.begin);
    v.after_name = lines.offset(d->name_span) + d->name.size();
    std::string code = f.text.substr(v.begin, v.end - v.begin);
    std::vector<size_t> at;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), per); it != std::sregex_iterator(); ++it)
      at.push_back(static_cast<size_t>(it->position()));
    for (size_t k = 0; k < d->dims.size(); ++k) {
      const std::string& type = d->dims[k].type;
      if (!type.empty()) {
        v.dims.push_back(type == "site" ? "sites" : type == "player" ? "seats" : "pieces");
      } else if (k < at.size()) {
        size_t stop = k + 1 < at.size() ? at[k + 1] : std::min(code.find('=', at[k]), code.size());
        v.dims.push_back(trim(code.substr(at[k] + 3, stop - at[k] - 3)));
      } else {
        f.problems.push_back(fmt::format("variable '{}': write its declaration on one line", v.name));
      }
    }
    f.vars.push_back(std::move(v));
  }
}

// The value of an expectation: a number, true or false, or a seat's name.
std::optional<int64_t> expected_value(const CaseFile& f, const std::string& text) {
  static const std::regex number(R"(-?[0-9]+)");
  if (std::regex_match(text, number)) return std::stoll(text);
  if (text == "true" || text == "false") return text == "true" ? 1 : 0;
  if (text == "none") return lang::kNoneValue;  // a `site or none` ... that is none
  const ast::Decl* players = f.game->checked().players;
  if (players)
    for (size_t i = 0; i < players->names.size(); ++i)
      if (players->names[i] == text) return static_cast<int64_t>(i);
  return std::nullopt;
}

std::optional<Expect> parse_expect(CaseFile& f, const std::string& comment, int line) {
  static const std::regex mark(R"(#\s*expect\b)");
  static const std::regex value(R"(#\s*expect:\s*([A-Za-z_][A-Za-z0-9_]*)((?:\[-?[0-9]+\])*)\s*=\s*(\S+)\s*$)");
  static const std::regex error(R"(#\s*expect error:\s*(\S.*\S|\S)\s*$)");
  static const std::regex index(R"(-?[0-9]+)");
  if (!std::regex_search(comment, mark)) return std::nullopt;
  std::smatch m;
  Expect e;
  e.line = line;
  if (std::regex_search(comment, m, error)) {
    e.error = m[1];
    return e;
  }
  auto v = std::regex_search(comment, m, value) ? expected_value(f, m[3]) : std::nullopt;
  if (!v) {
    f.problems.push_back(
        fmt::format("line {}: write `# expect: NAME = VALUE`, `# expect: NAME[i] = VALUE` or "
                    "`# expect error: TEXT` (VALUE a number, true, false, none or a seat)",
                    line));
    return std::nullopt;
  }
  e.name = m[1];
  e.target = std::string(m[1]) + std::string(m[2]);
  std::string ix = m[2];
  for (auto it = std::sregex_iterator(ix.begin(), ix.end(), index); it != std::sregex_iterator(); ++it)
    e.indices.push_back(std::stoll(it->str()));
  e.value = *v;
  e.value_text = m[3];
  return e;
}

void read_expects(CaseFile& f) {
  size_t start = 0;
  for (int line = 1; start < f.text.size(); ++line) {
    size_t nl = f.text.find('\n', start);
    std::string l = f.text.substr(start, nl == std::string::npos ? std::string::npos : nl - start);
    start = nl == std::string::npos ? f.text.size() : nl + 1;
    size_t hash = find_code(l, 0, '#');
    if (hash == std::string::npos) continue;
    auto e = parse_expect(f, l.substr(hash), line);
    if (!e) continue;
    auto g = std::find_if(f.groups.begin(), f.groups.end(),
                          [&](const Group& x) { return x.first_line <= line && line <= x.last_line; });
    if (g != f.groups.end())
      g->expects.push_back(*e);
    else if (e->is_error())
      f.problems.push_back(fmt::format("line {}: an expected error belongs in a group", line));
    else
      f.top.push_back(*e);
  }
}

// What the runner needs of every group: something to check, and for the contexts before play
// (which see only what the group itself assigns) a variable it assigns.
void check_groups(CaseFile& f) {
  for (const auto& g : f.groups) {
    if (g.expects.empty())
      f.problems.push_back(fmt::format("line {}: group '{}' expects nothing", g.first_line, g.name));
    bool error = std::any_of(g.expects.begin(), g.expects.end(), [](const Expect& e) { return e.is_error(); });
    if (error && g.expects.size() > 1)
      f.problems.push_back(
          fmt::format("line {}: group '{}' expects an error: it can expect nothing else", g.first_line, g.name));
    if (g.kind == Kind::Play) continue;
    for (const auto& e : g.expects)
      if (!e.is_error() && std::find(g.assigned.begin(), g.assigned.end(), e.name) == g.assigned.end())
        f.problems.push_back(fmt::format("line {}: group '{}' does not assign '{}' itself", e.line, g.name, e.name));
    for (const auto& name : g.assigned)
      if (!f.var(name))
        f.problems.push_back(fmt::format("group '{}': variable '{}' is not declared in this file", g.name, name));
    for (const auto& a : g.assignments)
      if (f.var(a.var) && !f.var(a.var)->dims.empty())
        f.problems.push_back(
            fmt::format("group '{}': '{}' has dimensions; a constant group assigns single values", g.name, a.var));
  }
  if (!f.groups.empty() && f.board_close == std::string::npos &&
      std::any_of(f.groups.begin(), f.groups.end(), [](const Group& g) { return g.kind != Kind::Play; }))
    f.problems.push_back("the board must be written `board { ... }`: the groups computed before play are added to it");
}

struct Edit {
  size_t at, len;
  std::string text;
};

std::string edited(std::string text, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
  for (const auto& e : edits) text.replace(e.at, e.len, e.text);
  return text;
}

// Every group's text turned into blanks (lines kept), so no rule assigns what became a constant:
// a rule whole, a chance phase's body (other rules may name the phase), plus a phase with one
// rule so the game still has one.
void blank_groups(const CaseFile& f, std::vector<Edit>& edits) {
  for (const auto& g : f.groups) {
    size_t b = g.chance ? g.body_open + 1 : g.begin, e = g.chance ? g.body_close : g.end;
    std::string blank = f.text.substr(b, e - b);
    for (char& c : blank)
      if (c != '\n') c = ' ';
    edits.push_back({b, e - b, blank});
  }
  edits.push_back({f.text.size(), 0, "\nphase semantics_idle {\n  move idle() {}\n}\n"});
}

std::string body_of(const CaseFile& f, const Group& g) {
  return f.text.substr(g.body_open + 1, g.body_close - g.body_open - 1);
}

// `COPY = NAME`, inside one loop per dimension.
std::string copy_statement(const VarDecl& v) {
  std::string index;
  std::string loops, close;
  for (size_t d = 0; d < v.dims.size(); ++d) {
    std::string i = fmt::format("semantics_{}", d);
    loops += fmt::format("for {} in {} {{\n", i, v.dims[d]);
    close += "}\n";
    index += "[" + i + "]";
  }
  return loops + fmt::format("{}{} = {}{}\n", board_copy(v.name), index, v.name, index) + close;
}

}  // namespace

CaseFile read_case_file(const std::string& path) {
  CaseFile f;
  f.path = path;
  f.game = GameFile::open(path);
  if (!ast::read_file(path, f.text) || !f.game->ok()) {
    for (const auto& d : f.game->diagnostics().all()) f.problems.push_back(diag::render(f.game->sources(), d));
    if (f.problems.empty()) f.problems.push_back("the file cannot be read");
    return f;
  }
  Lines lines(f.text);
  const check::Checked& ck = f.game->checked();
  if (ck.board && ck.board->file == ck.modules[ck.main].file && !ck.board->value) {
    size_t open = find_code(f.text, lines.offset(ck.board->span), '{');
    if (open != std::string::npos) f.board_close = match_brace(f.text, open);
  }
  read_vars(f, lines);
  read_groups(f, lines);
  read_expects(f);
  check_groups(f);
  return f;
}

std::string constant_game(const CaseFile& f, const Group& g) {
  std::vector<Edit> edits;
  for (const auto& a : g.assignments) {
    const VarDecl* v = f.var(a.var);
    if (v) edits.push_back({v->begin, v->end - v->begin, fmt::format("var {}: {} = {}", v->name, v->type, a.expr)});
  }
  return edited(f.text, edits);
}

std::string board_game(const CaseFile& f, const Group& g) {
  std::vector<Edit> edits;
  blank_groups(f, edits);
  std::string copies, setup;
  for (const auto& name : g.assigned) {
    const VarDecl* v = f.var(name);
    if (!v) continue;
    edits.push_back({v->begin, 3, "const"});
    std::string rest = f.text.substr(v->after_name, v->end - v->after_name);
    copies += fmt::format("var {}{}\n", board_copy(name), rest);
    setup += copy_statement(*v);
  }
  edits.push_back({f.board_close, 0, "if true {" + body_of(f, g) + "}\n"});
  edits.push_back({f.text.size(), 0, "\n" + copies + "setup {\n" + setup + "}\n"});
  return edited(f.text, edits);
}

std::string guard_rule(const std::string& var) { return "semantics_guard_" + var; }

std::string guard_game(const CaseFile& f, const Group& g) {
  std::string rules;
  for (const auto& a : g.assignments) {
    auto e = std::find_if(g.expects.begin(), g.expects.end(), [&](const Expect& x) { return x.name == a.var; });
    if (e == g.expects.end() || e->is_error()) continue;
    // The expected value as an expression that holds it (-2147483648 is not a literal the
    // comparison should depend on).
    std::string value = e->value_text;
    if (e->value == INT32_MIN)
      value = "(-2147483647 - 1)";
    else if (std::to_string(e->value) == value && e->value < 0)
      value = fmt::format("(-{})", -e->value);
    rules += fmt::format("  move {}() when ({}) == {} {{}}\n", guard_rule(a.var), a.expr, value);
  }
  return f.text + "\nphase semantics_guards {\n" + rules + "}\n";
}

std::string setup_game(const CaseFile& f, const Group& g) {
  std::vector<Edit> edits;
  blank_groups(f, edits);
  edits.push_back({f.text.size(), 0, "\nsetup {" + body_of(f, g) + "}\n"});
  return edited(f.text, edits);
}

const VarDecl* CaseFile::var(const std::string& name) const {
  for (const auto& v : vars)
    if (v.name == name) return &v;
  return nullptr;
}

std::string board_copy(const std::string& name) { return name + "__board"; }

}  // namespace keli::test::semantics
