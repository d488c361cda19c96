// Standing rules of the source tree: no C++ in grammar/, interpreter/ or tools/ names a game
// (games are data); the hand-written speed baselines in tools/bench/ are the one exception.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

TEST_CASE("no C++ source names a game", "[source]") {
  const std::vector<std::string> names = {"raja", "pasu", "pagade", "pahada", "keliya", "kalah", "oware",
                                          "pachisi", "chaupar", "pallanguli", "walak", "mandiri", "ludo"};
  int scanned = 0;
  for (const char* dir : {"grammar", "interpreter", "tools"}) {
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

}  // namespace keli::test
