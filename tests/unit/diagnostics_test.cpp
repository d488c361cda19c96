// Data-driven diagnostics tests: every tests/diagnostics/*.keli carries lines
//   # expect: CODE LINE:COL TEXT
// and validating it (check, then compile with default parameters) must produce exactly those
// diagnostics: same code, same position, a message containing TEXT, and nothing else.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {
struct Expect {
  std::string code;
  unsigned line, col;
  std::string text;
  int at;  // the line of the expect comment
};
}  // namespace

TEST_CASE("broken game files give their expected diagnostics", "[diagnostics]") {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(source_path("tests/diagnostics")))
    if (e.path().extension() == ".keli") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 25);
  static const std::regex expect_re(R"(#\s*expect:\s*([EW]\d{3})\s+(\d+):(\d+)\s+(.*\S)\s*$)");
  for (const auto& path : files) {
    DYNAMIC_SECTION(fs::path(path).filename().string()) {
      std::vector<Expect> expects;
      std::ifstream in(path);
      int n = 0;
      for (std::string l; std::getline(in, l);) {
        ++n;
        std::smatch m;
        if (std::regex_search(l, m, expect_re))
          expects.push_back({m[1], static_cast<unsigned>(std::stoul(m[2])), static_cast<unsigned>(std::stoul(m[3])), m[4], n});
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

}  // namespace keli::test
