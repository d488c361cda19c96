// keli fmt: the before/after cases in tests/format/, the repository's own Keli files already in
// the canonical layout, idempotency and token preservation on every .keli file, the command's
// --check and in-place modes, and the editor grammars knowing every keyword and built-in name.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <unistd.h>

#include "ast/loader.hpp"
#include "keli_keywords.hpp"
#include "lang/collections.hpp"
#include "lang/builtins.hpp"
#include "format/format.hpp"
#include "format/tokens.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::string text;
  REQUIRE(ast::read_file(path, text));
  return text;
}

// Every .keli file of the source tree outside build folders and hidden folders.
std::vector<std::string> all_keli_files() {
  std::vector<std::string> out;
  fs::path root(source_path(""));
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    std::string name = it->path().filename().string();
    if (it->is_directory() && (name.rfind("build", 0) == 0 || name[0] == '.')) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file() && it->path().extension() == ".keli") out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The files that must stay in the canonical layout: games, stdlib, the semantics corpus, the
// legal diagnostics cases.
std::vector<std::string> formatted_files() {
  std::vector<std::string> missing;
  auto files =
      format::collect_files({source_path("games"), source_path("stdlib"), source_path("tests/semantics")}, missing);
  for (const auto& e : fs::directory_iterator(source_path("tests/diagnostics")))
    if (e.path().filename().string().rfind("ok_", 0) == 0 && e.path().extension() == ".keli")
      files.push_back(e.path().string());
  return files;
}

}  // namespace

TEST_CASE("fmt: each tests/format case formats to its .out file", "[format]") {
  int cases = 0;
  for (const auto& e : fs::directory_iterator(source_path("tests/format"))) {
    std::string name = e.path().filename().string();
    if (name.size() < 9 || name.substr(name.size() - 8) != ".in.keli") continue;
    std::string stem = name.substr(0, name.size() - 8);
    DYNAMIC_SECTION(stem) {
      std::string in = slurp(e.path().string());
      std::string want = slurp(source_path("tests/format/" + stem + ".out.keli"));
      auto r = format::format_text(name, in);
      INFO(r.message);
      REQUIRE(r.status == format::Result::Ok);
      auto d = format::first_difference(want, r.text);
      INFO(fmt::format("line {}: expected '{}', got '{}'", d.line, d.before, d.after));
      CHECK(r.text == want);
      CHECK(in != want);  // a case must show the formatter changing something
      auto again = format::format_text(name, want);
      CHECK(again.text == want);
    }
    ++cases;
  }
  CHECK(cases >= 5);
}

TEST_CASE("fmt: games, stdlib, the semantics corpus and ok_ diagnostics files are already formatted", "[format]") {
  auto files = formatted_files();
  REQUIRE(files.size() >= 10);
  for (const auto& path : files) {
    std::string text = slurp(path);
    auto r = format::format_text(path, text);
    INFO(path << "\n" << r.message);
    REQUIRE(r.status == format::Result::Ok);
    auto d = format::first_difference(text, r.text);
    INFO(fmt::format(
        "not formatted (run keli fmt games stdlib tests/semantics tests/diagnostics/ok_*.keli): line {}:\n- {}\n+ {}",
        d.line, d.before, d.after));
    CHECK(d.line == 0);
  }
}

TEST_CASE("fmt: idempotent and token-preserving on every .keli file in the repository", "[format]") {
  int formatted = 0, syntax_errors = 0;
  for (const auto& path : all_keli_files()) {
    std::string text = slurp(path);
    auto once = format::format_text(path, text);
    INFO(path << "\n" << once.message);
    REQUIRE(once.status != format::Result::InternalError);
    if (once.status == format::Result::SyntaxError) {
      bool nesting = once.message.find("[E004]") != std::string::npos;   // past kMaxNesting: not laid out either
      bool not_text = once.message.find("[E005]") != std::string::npos;  // not UTF-8 (a fuzz regression)
      CHECK((once.message.find("[E001]") != std::string::npos || nesting || not_text));
      ++syntax_errors;
      continue;
    }
    CHECK(format::first_token_difference(format::lex(text), format::lex(once.text)) == -1);
    auto twice = format::format_text(path, once.text);
    auto d = format::first_difference(once.text, twice.text);
    INFO(fmt::format("second pass changed line {}:\n- {}\n+ {}", d.line, d.before, d.after));
    CHECK(twice.text == once.text);
    ++formatted;
  }
  CHECK(formatted >= 100);  // the diagnostics corpus alone has over a hundred files that parse
  CHECK(syntax_errors >= 5);
}

TEST_CASE("fmt: the token check notices a changed token", "[format]") {
  using format::first_token_difference, format::lex;
  CHECK(first_token_difference(lex("a <= b # x"), lex("a<=b   # x  ")) == -1);
  CHECK(first_token_difference(lex("a <= b"), lex("a < = b")) == 1);
  CHECK(first_token_difference(lex("x -= 1"), lex("x - = 1")) == 1);
  CHECK(first_token_difference(lex("# one"), lex("# one two")) == 0);
  CHECK(first_token_difference(lex("f(a)"), lex("f(a) g")) == 4);
}

TEST_CASE("fmt: a file that does not parse is a positioned syntax error", "[format]") {
  auto r = format::format_text("broken.keli", "game \"x\"\nplayers 2\nboard {\n  let = 3\n}\n");
  CHECK(r.status == format::Result::SyntaxError);
  CHECK(r.message.find("broken.keli:4:") != std::string::npos);
  CHECK(r.message.find("[E001]") != std::string::npos);
}

TEST_CASE("fmt: the command checks, rewrites in place and refuses broken files", "[format][cli]") {
  auto run = keli({"fmt", "--check", "games", "stdlib"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.out.find(" would change") != std::string::npos);

  fs::path dir = fs::temp_directory_path() / fmt::format("keli-fmt-test-{}", ::getpid());
  fs::create_directories(dir);
  std::string messy = (dir / "messy.keli").string(), broken = (dir / "broken.keli").string();
  std::string messy_text = slurp(source_path("tests/format/operators.in.keli"));
  std::string broken_text = "game \"x\"\nplayers 2 +\n";
  std::ofstream(messy) << messy_text;
  std::ofstream(broken) << broken_text;

  auto check = keli({"fmt", "--check", dir.string()});
  INFO(check.out << check.err);
  CHECK(check.status == 1);
  CHECK(check.out.find("messy.keli:2: not formatted") != std::string::npos);
  CHECK(check.err.find("broken.keli:3:1: error") != std::string::npos);
  CHECK(slurp(messy) == messy_text);  // --check writes nothing

  auto fix = keli({"fmt", messy});
  INFO(fix.out << fix.err);
  CHECK(fix.status == 0);
  CHECK(fix.out.find("formatted " + messy) != std::string::npos);
  CHECK(slurp(messy) == slurp(source_path("tests/format/operators.out.keli")));
  CHECK(keli({"fmt", "--check", messy}).status == 0);

  auto bad = keli({"fmt", broken});
  CHECK(bad.status == 1);
  CHECK(slurp(broken) == broken_text);  // left untouched
  CHECK(keli({"fmt"}).status == 2);
  CHECK(keli({"fmt", "--bogus", messy}).status == 2);
  CHECK(keli({"fmt", (dir / "absent.keli").string()}).status == 1);
  fs::remove_all(dir);
}

// The editor files agree with the language's tables both ways: every keyword (grammar/
// keli_keywords.hpp) and built-in (lang/builtins.hpp) is highlighted, and every word the editor
// files highlight is one of those, a type name, or a comment marker.
TEST_CASE("editor grammars and the language's tables agree", "[format][editor]") {
  std::set<std::string> words;
  for (const auto& k : grammar::keywords()) words.insert(k.text);
  REQUIRE(words.size() >= 60);
  for (int i = 0; i < static_cast<int>(lang::Builtin::count_); ++i)
    words.insert(lang::builtin_info(static_cast<lang::Builtin>(i)).name);
  for (int i = 0; i < static_cast<int>(lang::BuiltinVar::count_); ++i)
    words.insert(lang::builtin_var_info(static_cast<lang::BuiltinVar>(i)).name);
  for (int i = 0; i < static_cast<int>(lang::CollFunction::count_); ++i)
    words.insert(lang::coll_function_name(static_cast<lang::CollFunction>(i)));

  // Only the patterns count, not comments or descriptions: TextMate "match" values, Vim syn lines.
  auto pattern_lines = [&](const std::string& path, const std::string& marker) {
    std::istringstream in(slurp(source_path(path)));
    std::string out;
    for (std::string l; std::getline(in, l);)
      if (l.find(marker) != std::string::npos) out += l + "\n";
    return out;
  };
  std::string textmate = pattern_lines("tools/editor/keli.tmLanguage.json", "\"match\"");
  std::string vim = pattern_lines("tools/editor/vim/syntax/keli.vim", "syn ");
  auto has = [](const std::string& text, const std::string& w) {
    std::regex re("(^|[^A-Za-z0-9_])" + w + "($|[^A-Za-z0-9_])");
    return std::regex_search(text, re);
  };
  for (const auto& w : words) {
    INFO(w);
    CHECK(has(textmate, w));
    CHECK(has(vim, w));
  }

  // The other way: the words of TextMate's `\b(a|b|c)` groups and of Vim's `syn keyword` lines.
  std::set<std::string> extra = {"site", "player", "piece", "direction",
                                 "TODO", "FIXME",  "XXX",   "NOTE"};  // types, markers
  std::set<std::string> highlighted;
  std::regex group(R"re(\(([a-z_]+(\|[a-z_]+)+)\))re");
  for (auto it = std::sregex_iterator(textmate.begin(), textmate.end(), group); it != std::sregex_iterator(); ++it) {
    std::string alts = (*it)[1];
    std::istringstream in(alts);
    for (std::string w; std::getline(in, w, '|');) highlighted.insert(w);
  }
  std::istringstream vin(vim);
  for (std::string l; std::getline(vin, l);) {
    std::istringstream ws(l);
    std::string syn, kind, name, w;
    ws >> syn >> kind >> name;
    if (kind != "keyword") continue;
    while (ws >> w)
      if (w != "contained") highlighted.insert(w);
  }
  REQUIRE(highlighted.size() >= 60);
  for (const auto& w : highlighted) {
    INFO(w << " is highlighted by an editor file but is no keyword, built-in or type");
    CHECK((words.count(w) > 0 || extra.count(w) > 0));
  }
}

}  // namespace keli::test
