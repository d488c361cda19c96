// Standing rules of the source tree: no C++ in grammar/, interpreter/, tools/ or web/ names a game
// (games are data); the hand-written speed baselines in tools/bench/ are the one exception. And
// the code stays in small pieces: no file over 500 lines, no function over 90 (issue 12).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

TEST_CASE("no C++ source names a game", "[source]") {
  const std::vector<std::string> names = {"raja",    "pasu",    "pagade",     "pahada", "keliya",  "kalah", "oware",
                                          "pachisi", "chaupar", "pallanguli", "walak",  "mandiri", "ludo"};
  int scanned = 0;
  for (const char* dir : {"grammar", "interpreter", "tools", "web"}) {
    for (const auto& e : fs::recursive_directory_iterator(source_path(dir))) {
      std::string p = e.path().string();
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h" && ext != ".cc")) continue;
      if (p.find("/tools/bench/") != std::string::npos) continue;
      std::ifstream in(p);
      std::stringstream ss;
      ss << in.rdbuf();
      std::string text = ss.str();
      std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
      for (const auto& n : names) {
        INFO(p);
        CHECK(text.find(n) == std::string::npos);
      }
      ++scanned;
    }
  }
  CHECK(scanned > 20);
}

namespace {

// The C++ files under grammar/, interpreter/, tools/ and web/ (the speed baselines in tools/bench/ aside).
std::vector<fs::path> source_files() {
  std::vector<fs::path> out;
  for (const char* dir : {"grammar", "interpreter", "tools", "web"}) {
    for (const auto& e : fs::recursive_directory_iterator(source_path(dir))) {
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h" && ext != ".cc")) continue;
      if (e.path().string().find("/tools/bench/") != std::string::npos) continue;
      out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

size_t indent_of(const std::string& l) {
  return l.find_first_not_of(' ') == std::string::npos ? l.size() : l.find_first_not_of(' ');
}

// Does the line open a function body: a definition at namespace or class scope (indent 0, 2 or 4
// in this code base's 2-space style) with its signature on one line and `{` at its end? Control
// statements, namespaces, types and lambdas assigned to variables are not functions.
bool opens_function(const std::string& l) {
  size_t ind = indent_of(l);
  if (ind > 4 || ind % 2 != 0 || l.size() < 2 || l.back() != '{' || l.find('(') == std::string::npos) return false;
  std::string rest = l.substr(ind);
  for (const char* word : {"if ", "if(", "for ", "for(", "while ", "while(", "switch ", "switch(", "else", "do ",
                           "namespace", "struct ", "class ", "enum ", "case ", "return ", "}", "//", "#"})
    if (rest.rfind(word, 0) == 0) return false;
  if (rest.find(" = ") != std::string::npos && rest.find(" = ") < rest.find('('))
    return false;  // a variable's initialiser
  return true;
}

struct LongFunction {
  std::string where;  // file:line of the signature
  size_t lines;       // lines between the braces
};

// Each function body counted from its opening line to the `}` at the same indentation; a line
// indented less before that ends the search (the scanner misread the line as a function).
std::vector<LongFunction> long_functions(const fs::path& p, const std::vector<std::string>& lines, size_t limit) {
  std::vector<LongFunction> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!opens_function(lines[i])) continue;
    size_t ind = indent_of(lines[i]);
    size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      const std::string& l = lines[j];
      if (l.size() > ind && l.compare(0, ind, std::string(ind, ' ')) == 0 && l[ind] == '}') break;
      if (l.find_first_not_of(' ') != std::string::npos && indent_of(l) <= ind) {
        j = lines.size();
        break;
      }
    }
    if (j < lines.size() && j - i - 1 > limit) out.push_back({fmt::format("{}:{}", p.string(), i + 1), j - i - 1});
  }
  return out;
}

}  // namespace

// "About 80 lines": a function body of more than 85 is split into named steps.
constexpr int kMaxFunctionLines = 85;

TEST_CASE("no source file is over 500 lines and no function over 85", "[source]") {
  std::vector<std::string> long_files, offenders;
  int scanned = 0, functions = 0;
  for (const fs::path& p : source_files()) {
    std::vector<std::string> lines = lines_of(p);
    if (lines.size() > 500) long_files.push_back(fmt::format("{} ({} lines)", p.string(), lines.size()));
    for (const std::string& l : lines) functions += opens_function(l);
    for (const LongFunction& f : long_functions(p, lines, kMaxFunctionLines))
      offenders.push_back(fmt::format("{}: a function of {} lines", f.where, f.lines));
    ++scanned;
  }
  INFO("files over 500 lines:\n  " << fmt::format("{}", fmt::join(long_files, "\n  ")));
  CHECK(long_files.empty());
  INFO("functions over 85 lines (split them into named steps):\n  " << fmt::format("{}", fmt::join(offenders, "\n  ")));
  CHECK(offenders.empty());
  CHECK(scanned > 20);
  CHECK(functions > 500);  // the scanner still recognises this code base's functions
}

TEST_CASE("the function scanner finds a long function and skips control statements", "[source]") {
  std::vector<std::string> lines = {"namespace x {", "int f(int a) {"};
  for (int i = 0; i < 95; ++i) lines.push_back("  a += 1;");
  lines.push_back("  if (a) {");
  lines.push_back("  }");
  lines.push_back("  return a;");
  lines.push_back("}");
  lines.push_back("void g() {");
  lines.push_back("}");
  auto found = long_functions("x.cpp", lines, 90);
  REQUIRE(found.size() == 1);
  CHECK(found[0].where == "x.cpp:2");
  CHECK(found[0].lines == 98);
  CHECK_FALSE(opens_function("  if (a) {"));
  CHECK_FALSE(opens_function("  auto f = [&](int x) {"));
  CHECK(opens_function("Type Checker::expr(Expr& e, Type want, int want_enum) {"));
  CHECK(opens_function("  int loop(runtime::Rng& rng) {"));
}

}  // namespace keli::test
