// The corpus of bad scenario files (tests/scenarios/bad/*.yaml): each must fail with exactly the
// diagnostics its `# expect: CODE LINE:COL TEXT` lines name, and no other (tests/scenarios/README.md).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario/scenario.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {
struct Expected {
  std::string code;
  uint32_t line = 0, col = 0;
  std::string text;
};

std::vector<Expected> expected_of(const std::string& path) {
  std::vector<Expected> out;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("# expect: ", 0) != 0) continue;
    std::istringstream words(l.substr(10));
    Expected e;
    std::string at;
    char colon = 0;
    words >> e.code >> at;
    std::istringstream(at) >> e.line >> colon >> e.col;
    std::getline(words >> std::ws, e.text);
    out.push_back(e);
  }
  return out;
}
}  // namespace

TEST_CASE("every bad scenario file fails with the diagnostics it expects", "[scenario][corpus]") {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(source_path("tests/scenarios/bad")))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 20);
  for (const auto& path : files) {
    std::vector<Expected> want = expected_of(path);
    INFO(path);
    REQUIRE(!want.empty());
    SourceSet src;
    diag::Diagnostics d;
    scenario::Report r = scenario::run_file(path, src, d);
    CHECK(r.failed > 0);
    std::string got;
    for (const auto& x : d.all()) got += diag::render(src, x);
    INFO(got);
    CHECK(d.all().size() == want.size());
    for (const auto& w : want) {
      bool found = false;
      for (const auto& x : d.all())
        found = found || (diag::info(x.code).code == w.code && x.span.line == w.line && x.span.col == w.col &&
                          x.message.find(w.text) != std::string::npos);
      INFO(fmt::format("expected {} {}:{} {}", w.code, w.line, w.col, w.text));
      CHECK(found);
    }
  }
}

}  // namespace keli::test
