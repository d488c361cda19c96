// Data-driven diagnostics tests: every tests/diagnostics/*.keli carries lines
//   # expect: CODE LINE:COL TEXT   (or TEXT | hint: HINT)
// and validating it (check, then compile with default parameters) must produce exactly those
// diagnostics: same code, same position, a message containing TEXT (a hint containing HINT), and
// nothing else.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "diag/codes.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {
struct Expect {
  std::string code;
  unsigned line = 0, col = 0;
  std::string text;
  std::string hint;  // empty: the hint is not compared
  int at = 0;        // the line of the expect comment
};
}  // namespace

TEST_CASE("broken game files give their expected diagnostics", "[diagnostics]") {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(source_path("tests/diagnostics")))
    if (e.path().extension() == ".keli") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 25);
  for (const auto& path : files) {
    DYNAMIC_SECTION(fs::path(path).filename().string()) {
      std::vector<Expect> expects;
      std::ifstream in(path);
      int n = 0;
      for (std::string l; std::getline(in, l);) {
        ++n;
        auto at = l.find("# expect:");
        if (at == std::string::npos) continue;
        std::istringstream in_line(l.substr(at + 9));
        Expect e;
        char colon = 0;
        in_line >> e.code >> e.line >> colon >> e.col;
        std::getline(in_line, e.text);
        e.text.erase(0, e.text.find_first_not_of(" \t"));
        e.text.erase(e.text.find_last_not_of(" \t\r") + 1);
        if (const size_t h = e.text.find(" | hint: "); h != std::string::npos) {
          e.hint = e.text.substr(h + 9);
          e.text.erase(h);
        }
        e.at = n;
        INFO(fmt::format("{}:{}: malformed expect line", path, n));
        REQUIRE((colon == ':' && e.code.size() == 4 && !e.text.empty()));
        expects.push_back(e);
      }
      auto g = GameFile::open(path);
      std::vector<diag::Diagnostic> got = g->diagnostics().all();
      diag::Diagnostics extra;
      if (g->ok()) g->compile({}, extra);
      got.insert(got.end(), extra.all().begin(), extra.all().end());
      std::string shown;
      for (const auto& d : got) shown += diag::render(g->sources(), d);
      INFO("produced:\n" << shown);
      std::vector<bool> used(got.size(), false);
      for (const auto& e : expects) {
        bool found = false;
        for (size_t i = 0; i < got.size() && !found; ++i) {
          const auto& d = got[i];
          if (used[i] || diag::info(d.code).code != e.code || d.span.line != e.line || d.span.col != e.col) continue;
          if (d.message.find(e.text) == std::string::npos) continue;
          if (!e.hint.empty() && d.hint.find(e.hint) == std::string::npos) continue;
          if (g->sources().file(d.span.file).path != path) continue;
          used[i] = found = true;
        }
        INFO(fmt::format("expected at line {}: {} {}:{} {}", e.at, e.code, e.line, e.col, e.text));
        CHECK(found);
      }
      for (size_t i = 0; i < got.size(); ++i) {
        INFO("not expected: " << diag::render(g->sources(), got[i]));
        CHECK(used[i]);
      }
    }
  }
}

// Every code of the table is documented, and every code a game file can cause has a corpus file
// that expects it (so the documented example is one the test suite checks).
TEST_CASE("every diagnostic code is documented and has a broken file", "[diagnostics]") {
  std::ifstream doc_in(source_path("docs/diagnostics.md"));
  std::stringstream doc;
  doc << doc_in.rdbuf();
  std::string expected_codes;
  for (const auto& e : fs::directory_iterator(source_path("tests/diagnostics"))) {
    std::ifstream in(e.path());
    for (std::string l; std::getline(in, l);)
      if (auto at = l.find("# expect: "); at != std::string::npos) expected_codes += l.substr(at + 10, 4) + " ";
  }
  // Codes no game file alone can cause: the command line, play, traces, scenarios, invariants.
  const std::vector<std::string> outside_files = {"E302", "E601", "E701", "E702", "E703",
                                                  "E704", "E705", "E710", "E711", "E720"};
#define KELI_DIAG_CODE(id, code, sev, summary) code,
  const std::vector<std::string> codes = {KELI_DIAGNOSTICS(KELI_DIAG_CODE)};
#undef KELI_DIAG_CODE
  REQUIRE(codes.size() > 30);
  for (const auto& code : codes) {
    INFO(code);
    CHECK(doc.str().find("### " + code + " ") != std::string::npos);
    if (std::find(outside_files.begin(), outside_files.end(), code) == outside_files.end())
      CHECK(expected_codes.find(code) != std::string::npos);
  }
}

}  // namespace keli::test
