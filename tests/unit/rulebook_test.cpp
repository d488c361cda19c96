// keli rules: every game's rulebook says every rule in words (no construct shown as code, under
// every option set), docs/games/ holds what the game files give, every library definition has its
// phrase, the seeds' rule texts are traced sentence by sentence to their books, and the command
// folds options, writes the three formats and refuses bad usage.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <regex>
#include <set>

#include "rulebook/rulebook.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

// Option sets a game's rulebook is checked under: enough to reach every branch an option picks.
constexpr size_t kMaxOptionSets = 64;

rulebook::Book book_of(const GameFile& g, const std::string& path, const compile::ParamSettings& settings = {}) {
  return rulebook::build(g, compile(path, settings));
}

std::string collapsed(const std::string& s) {
  static const std::regex space("\\s+");
  return std::regex_replace(s, space, " ");
}

// The formals' names of `NAME(a: site, b: int = 0)`.
std::set<std::string> formal_names(const std::string& line) {
  std::set<std::string> out;
  auto open = line.find('('), close = line.find(')');
  if (open == std::string::npos || close == std::string::npos) return out;
  std::string list = line.substr(open + 1, close - open - 1);
  static const std::regex name("(\\w+)\\s*:");
  for (std::sregex_iterator it(list.begin(), list.end(), name), end; it != end; ++it) out.insert((*it)[1]);
  return out;
}

}  // namespace

TEST_CASE("every game's rulebook says every rule in words, under every option set", "[rulebook]") {
  auto files = game_files();
  REQUIRE(files.size() >= 40);
  size_t books = 0;
  for (const auto& path : files) {
    auto g = GameFile::open(path);
    REQUIRE(g->ok());
    auto sets = option_combinations(*g);
    if (sets.size() > kMaxOptionSets) sets.resize(kMaxOptionSets);
    for (const auto& settings : sets) {
      rulebook::Book b = book_of(*g, path, settings);
      for (const auto& f : b.fallbacks) UNSCOPED_INFO(path << ": " << f.where << ": " << f.code);
      CHECK(b.fallbacks.empty());
      CHECK(b.sections.size() >= 6);
      ++books;
    }
  }
  CHECK(books >= files.size());
}

TEST_CASE("docs/games holds the rulebook each game file gives", "[rulebook]") {
  std::string index = read_text(source_path("docs/games/README.md"));
  for (const auto& path : game_files()) {
    std::string name = fs::path(path).stem().string();
    auto g = GameFile::open(path);
    REQUIRE(g->ok());
    std::string want = rulebook::print(book_of(*g, path), rulebook::Format::Markdown);
    INFO(name << ": docs/games/" << name << ".md is out of date: run tools/rulebooks.sh");
    CHECK(read_text(source_path("docs/games/" + name + ".md")) == want);
    CHECK(index.find("(" + name + ".md)") != std::string::npos);
  }
}

TEST_CASE("every definition of the standard library carries its phrase in words", "[rulebook]") {
  static const std::regex decl("^\\s*(def|fact|shape|event)\\s+(\\w+)");
  static const std::regex hole("\\{(if\\s+)?(\\w+)");
  size_t phrased = 0;
  for (const auto& entry : fs::directory_iterator(source_path("stdlib"))) {
    if (entry.path().extension() != ".keli") continue;
    std::string text = read_text(entry.path().string());
    std::vector<std::string> lines;
    for (size_t at = 0, nl; at < text.size(); at = nl + 1) {
      nl = text.find('\n', at);
      if (nl == std::string::npos) nl = text.size();
      lines.push_back(text.substr(at, nl - at));
    }
    for (size_t i = 0; i < lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_search(lines[i], m, decl)) continue;
      INFO(entry.path().filename().string() << ":" << i + 1 << ": " << lines[i]);
      std::string phrase;
      for (size_t j = i; j-- > 0 && lines[j].find_first_not_of(' ') != std::string::npos &&
                         lines[j][lines[j].find_first_not_of(' ')] == '#';)
        if (auto at = lines[j].find("# In words: "); at != std::string::npos) phrase = lines[j].substr(at + 12);
      CHECK(!phrase.empty());
      std::set<std::string> formals = formal_names(lines[i]);
      for (std::sregex_iterator it(phrase.begin(), phrase.end(), hole), end; it != end; ++it) {
        INFO("the hole {" << (*it)[2] << "} names no parameter");
        CHECK(formals.count((*it)[2]) == 1);
      }
      CHECK(std::regex_replace(phrase, hole, "").find('_') == std::string::npos);  // words, never code
      ++phrased;
    }
  }
  CHECK(phrased >= 80);
}

TEST_CASE("a library definition without a phrase is shown as code and counted", "[rulebook]") {
  std::string path = source_path("tests/rulebooks/unphrased.keli");
  auto g = GameFile::open(path);
  REQUIRE(g->ok());
  rulebook::Book b = book_of(*g, path);
  REQUIRE(b.fallbacks.size() == 1);
  CHECK(b.fallbacks[0].code == "flip(s)");
  CHECK(b.fallbacks[0].where.find("unphrased.keli:") != std::string::npos);
  Run strict = keli({"rules", "tests/rulebooks/unphrased.keli", "--strict"});
  CHECK(strict.status == 1);
  CHECK(strict.err.find("error: this is shown as code in the rulebook: flip(s)") != std::string::npos);
  Run lenient = keli({"rules", "tests/rulebooks/unphrased.keli"});
  CHECK(lenient.status == 0);
  CHECK(lenient.err.find("warning:") != std::string::npos);
  CHECK(lenient.out.find("`flip(s)`") != std::string::npos);
}

TEST_CASE("the seeds' rule texts are traced sentence by sentence to their rulebooks", "[rulebook]") {
  for (const char* seed : {"pahada_keliya", "pagade_kayi_ata", "raja_pasu"}) {
    INFO(seed);
    YAML::Node t = YAML::LoadFile(source_path(fmt::format("tests/rulebooks/{}.trace.yaml", seed)));
    std::string text = collapsed(read_text(source_path(t["seed"].as<std::string>())));
    std::string book = read_text(source_path(t["book"].as<std::string>()));
    REQUIRE(!text.empty());
    REQUIRE(!book.empty());
    size_t from = text.find(t["from"].as<std::string>());
    REQUIRE(from != std::string::npos);
    size_t until = text.find(t["until"].as<std::string>(), from);
    REQUIRE(until != std::string::npos);
    std::string rest = text.substr(from, until - from);
    size_t traced = 0;
    for (const auto& s : t["sentences"]) {
      std::string sentence = collapsed(s["text"].as<std::string>());
      std::string rule = s["rule"].as<std::string>();
      INFO(sentence << " -> " << rule);
      CHECK(book.find(fmt::format("<a id=\"{}\"></a>", rule)) != std::string::npos);
      auto at = rest.find(sentence);
      CHECK(at != std::string::npos);
      if (at != std::string::npos) rest.replace(at, sentence.size(), " ");
      ++traced;
    }
    for (const auto& h : t["headings"]) {
      auto at = rest.find(h.as<std::string>());
      if (at != std::string::npos) rest.replace(at, h.as<std::string>().size(), " ");
    }
    INFO("not traced: " << rest);
    CHECK(rest.find_first_not_of(" -.,;:()") == std::string::npos);
    CHECK(traced >= 10);
  }
}

TEST_CASE("keli rules folds the options in effect and writes text, Markdown and HTML", "[rulebook][cli]") {
  Run plain = keli({"rules", "games/kalah.keli"});
  REQUIRE(plain.status == 0);
  CHECK(plain.out.find("Move: sow") != std::string::npos);
  CHECK(plain.out.find("Allowed only when the number of counters in h is more than 0.") != std::string::npos);
  // capture = always makes `capture == always or counters[across] > 0` true: the test is left out.
  CHECK(plain.out.find("in across is more than 0") == std::string::npos);
  Run full = keli({"rules", "games/kalah.keli", "--param", "capture=opposite_full"});
  REQUIRE(full.status == 0);
  CHECK(full.out.find("in across is more than 0") != std::string::npos);
  Run html = keli({"rules", "games/raja_pasu.keli", "--format", "html"});
  REQUIRE(html.status == 0);
  CHECK(html.out.find("<h3 id=\"move-sowing-sow\">Move: sow</h3>") != std::string::npos);
  CHECK(html.out.rfind("</html>\n") == html.out.size() - 8);
  CHECK(keli({"rules", "games/kalah.keli", "--format", "xml"}).status == 2);
  CHECK(keli({"rules"}).status == 2);
  CHECK(keli({"rules", "games/kalah.keli", "--param", "pits=99"}).status == 1);
  std::string out = (fs::temp_directory_path() / fmt::format("keli_rules_{}.md", ::getpid())).string();
  REQUIRE(keli({"rules", "games/kalah.keli", "--format", "md", "-o", out}).status == 0);
  CHECK(read_text(out) == read_text(source_path("docs/games/kalah.md")));
  fs::remove(out);
  std::string before = read_text(source_path("games/kalah.keli"));
  CHECK(keli({"rules", "games/kalah.keli", "-o", "games/kalah.keli"}).status == 1);
  CHECK(read_text(source_path("games/kalah.keli")) == before);
}

}  // namespace keli::test
