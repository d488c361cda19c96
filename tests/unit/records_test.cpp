// Simulation at scale: per-game records (CSV and JSON Lines) that sum to the summary, shards
// merged into the bytes of one process, merge's refusals of records that are not one whole run
// (each with its file and line), and keli report's page checked against the records it draws.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <tinyxml2.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "sim/records.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / fmt::format("keli_records_{}_{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::vector<sim::RecordRow> read_rows(const std::string& path, sim::RunHeader* header = nullptr) {
  std::ifstream in(path, std::ios::binary);
  sim::RecordReader r(in, path);
  if (header) *header = r.header();
  std::vector<sim::RecordRow> rows;
  for (sim::RecordRow row; r.next(row);) rows.push_back(row);
  return rows;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

const char* kGame = "games/pahada_keliya.keli";

}  // namespace

TEST_CASE("records: one row a game, in game order, that sum to the summary", "[records]") {
  fs::path dir = scratch("sum");
  for (const char* ext : {"jsonl", "csv"}) {
    std::string path = (dir / fmt::format("r.{}", ext)).string();
    auto run = keli({"simulate", kGame, "-n", "40", "--seed", "5", "--threads", "2", "--json", "--records", path});
    INFO(ext << "\n" << run.err);
    REQUIRE(run.status == 0);
    sim::RunHeader h;
    auto rows = read_rows(path, &h);
    REQUIRE(rows.size() == 40);
    CHECK(h.seed == 5);
    CHECK(h.games == 40);
    CHECK(h.seats.size() == 4);
    YAML::Node res = YAML::Load(run.out)["results"];
    std::vector<int64_t> wins(4, 0);
    int64_t natural = 0, decisions = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      CHECK(rows[i].index == static_cast<int64_t>(i));
      CHECK(rows[i].seed == sim::game_seed(5, static_cast<int64_t>(i)));
      CHECK(rows[i].players == std::vector<std::string>(4, "random"));
      CHECK(rows[i].error.empty());
      for (size_t s = 0; s < 4; ++s) wins[s] += rows[i].places[s] == 1;
      natural += rows[i].end == sim::End::Rules;
      decisions += rows[i].decisions;
    }
    for (size_t s = 0; s < 4; ++s) CHECK(res["seats"][s]["wins"]["count"].as<int64_t>() == wins[s]);
    CHECK(res["natural_end"]["count"].as<int64_t>() == natural);
    CHECK(res["length"]["mean"].as<double>() == Approx(static_cast<double>(decisions) / 40).margin(0.006));
  }
  // The same records whatever the thread count; a game's row is `keli run --seed SEED`.
  std::string one = (dir / "one.csv").string(), three = (dir / "three.csv").string();
  REQUIRE(keli({"simulate", kGame, "-n", "30", "--threads", "1", "--records", one}).status == 0);
  REQUIRE(keli({"simulate", kGame, "-n", "30", "--threads", "3", "--records", three}).status == 0);
  CHECK(read_text(one) == read_text(three));
}

// A game that scores points (games/kalah_margin.keli): each row has them, the summary's means are
// theirs, shards merge as a whole run, and a row that lacks them (or a file that adds them to a
// game without points) is refused with its line.
TEST_CASE("records: the points of a game that scores them", "[records][points]") {
  fs::path dir = scratch("points");
  const char* game = "games/kalah_margin.keli";
  for (const char* ext : {"jsonl", "csv"}) {
    std::string path = (dir / fmt::format("r.{}", ext)).string();
    auto run = keli({"simulate", game, "-n", "30", "--seed", "2", "--json", "--records", path});
    INFO(ext << "\n" << run.err);
    REQUIRE(run.status == 0);
    sim::RunHeader h;
    auto rows = read_rows(path, &h);
    REQUIRE(rows.size() == 30);
    CHECK(h.points);
    int64_t south = 0;
    for (const auto& r : rows) {
      REQUIRE(r.points.size() == 2);
      CHECK(r.points[0] == -r.points[1]);
      CHECK((r.points[0] > 0) == (r.places[0] == 1 && r.places[1] == 2));
      south += r.points[0];
    }
    YAML::Node seats = YAML::Load(run.out)["results"]["seats"];
    CHECK(seats[0]["points"]["mean"].as<double>() == Approx(static_cast<double>(south) / 30).margin(0.006));
    CHECK(seats[1]["points"]["mean"].as<double>() == Approx(static_cast<double>(-south) / 30).margin(0.006));
  }
  std::string whole = (dir / "whole.jsonl").string();
  auto one = keli({"simulate", game, "-n", "9", "--json", "--records", whole});
  std::vector<std::string> merge = {"merge", "--json"};
  for (int i = 0; i < 2; ++i) {
    std::string path = (dir / fmt::format("s{}.{}", i, i ? "csv" : "jsonl")).string();
    REQUIRE(keli({"simulate", game, "-n", "9", "--shard", fmt::format("{}/2", i), "--records", path}).status == 0);
    merge.push_back(path);
  }
  auto m = keli(merge);
  CHECK(m.status == 0);
  CHECK(m.out == one.out);
  // Points taken away from a row, or given to a row of a game without them.
  std::string text = read_text((dir / "r.csv").string());
  size_t row = text.find('\n', text.find('\n') + 1) + 1;
  std::string cut = text.substr(0, text.find('\n', row)), lacking = (dir / "lacking.csv").string();
  write(lacking, text.substr(0, row) + cut.substr(row, cut.rfind(',') - row) + "\n");
  auto r1 = keli({"merge", lacking});
  CHECK(r1.status == 1);
  CHECK(r1.err.find("lacking.csv:3: error: a row has 10 fields") != std::string::npos);
  std::string plain = (dir / "plain.jsonl").string(), added = (dir / "added.jsonl").string();
  REQUIRE(keli({"simulate", "games/kalah.keli", "-n", "1", "--records", plain}).status == 0);
  std::string p = read_text(plain);
  write(added, p.replace(p.find("\"end\""), 0, "\"points\":[1,-1],"));
  auto r2 = keli({"merge", added});
  CHECK(r2.status == 1);
  CHECK(r2.err.find("added.jsonl:2: error: a row has points, but its run's game scores none") != std::string::npos);
}

TEST_CASE("shards: three shards merged are the bytes of one run", "[records][merge]") {
  fs::path dir = scratch("shards");
  for (const char* form : {"--json", "--csv"}) {
    auto whole =
        keli({"simulate", kGame, "-n", "31", "--seed", "7", form, "--records", (dir / "whole.jsonl").string()});
    REQUIRE(whole.status == 0);
    std::vector<std::string> merge = {"merge", form};
    for (int i = 0; i < 3; ++i) {
      std::string path = (dir / fmt::format("s{}.{}", i, i == 1 ? "csv" : "jsonl")).string();  // formats mix
      auto s =
          keli({"simulate", kGame, "-n", "31", "--seed", "7", "--shard", fmt::format("{}/3", i), "--records", path});
      REQUIRE(s.status == 0);
      CHECK(read_rows(path).size() == (i == 0 ? 11u : 10u));
      merge.push_back(path);
    }
    std::swap(merge[2], merge[4]);  // the files in any order
    merge.insert(merge.end(), {"--records", (dir / "merged.jsonl").string()});
    auto m = keli(merge);
    INFO(m.err);
    REQUIRE(m.status == 0);
    CHECK(m.out == whole.out);
    CHECK(read_text((dir / "merged.jsonl").string()) == read_text((dir / "whole.jsonl").string()));
  }
  // The text form too, less its timing line.
  auto text = keli({"simulate", kGame, "-n", "31", "--seed", "7"});
  auto merged = keli({"merge", (dir / "s0.jsonl").string(), (dir / "s1.csv").string(), (dir / "s2.jsonl").string()});
  CHECK(text.out.substr(0, text.out.find("time:")) == merged.out);
}

TEST_CASE("merge: errors and their exit status come back from the records", "[records][merge]") {
  fs::path dir = scratch("errors");
  std::string game = source_path("tests/records/failing_invariant.keli");
  auto whole = keli({"simulate", game, "-n", "12", "--json"});
  REQUIRE(whole.status == 1);
  for (int i = 0; i < 2; ++i)
    keli({"simulate", game, "-n", "12", "--shard", fmt::format("{}/2", i), "--records",
          (dir / fmt::format("s{}.csv", i)).string()});
  auto m = keli({"merge", "--json", (dir / "s0.csv").string(), (dir / "s1.csv").string()});
  CHECK(m.status == 1);
  CHECK(m.out == whole.out);
  CHECK(m.err == whole.err);  // the first error as keli run prints it, and the count
}

TEST_CASE("merge: records that are not one whole run are refused with file and line", "[records][merge]") {
  fs::path dir = scratch("refused");
  auto shard = [&](const std::string& name, int i, int n, const std::string& seed = "3") {
    std::string path = (dir / name).string();
    REQUIRE(
        keli({"simulate", kGame, "-n", "9", "--seed", seed, "--shard", fmt::format("{}/{}", i, n), "--records", path})
            .status == 0);
    return path;
  };
  std::string a = shard("a.jsonl", 0, 3), b = shard("b.jsonl", 1, 3), c = shard("c.csv", 2, 3);
  std::string other_seed = shard("d.jsonl", 2, 3, "4"), again = shard("e.jsonl", 1, 3);
  std::string text = read_text(b);
  std::string corrupt = (dir / "corrupt.jsonl").string(), cut = (dir / "cut.jsonl").string();
  std::string swapped = (dir / "swapped.jsonl").string(), notrecords = (dir / "x.jsonl").string();
  size_t third = text.find('\n', text.find('\n', text.find('\n') + 1) + 1);  // after line 3
  write(corrupt, text.substr(0, third + 1) + "{\"index\":7,\"seed\":oops}\n" + text.substr(third + 1));
  write(cut, text.substr(0, third + 1));
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  write(swapped, lines[0] + "\n" + lines[2] + "\n" + lines[1] + "\n" + lines[3] + "\n");
  write(notrecords, "hello\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{a, b, other_seed},
       other_seed + ":1: error: these records are not of the run of " + a + ": the seed: '3' and '4'"},
      {{a, b, again, c}, again + ":1: error: shard 1/3 is also in " + b},
      {{a, c}, a + ": error: shard 1/3 of this run is missing"},
      {{a, corrupt, c}, corrupt + ":4:"},
      {{a, cut, c}, cut + ":3: error: the file ends before game 7"},
      {{a, swapped, c}, swapped + ":2: error: game 1 is missing: this row is game 4"},
      {{a, notrecords}, notrecords + ":1: error: this is not a records file"},
      {{a, (dir / "none.jsonl").string()}, "none.jsonl: error: cannot read the records file [E711]"},
  };
  for (const auto& [files, expected] : cases) {
    std::vector<std::string> args = {"merge", "--json"};
    args.insert(args.end(), files.begin(), files.end());
    auto r = keli(args);
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err));
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK(r.err.find("[E711]") != std::string::npos);
  }
  // The output never over an input, and usage errors.
  auto over = keli({"merge", a, b, c, "--records", a});
  CHECK(over.status == 1);
  CHECK(over.err.find("[E710]") != std::string::npos);
  CHECK(keli({"merge"}).status == 2);
  CHECK(keli({"simulate", kGame, "--shard", "3/3"}).status == 2);
  CHECK(keli({"simulate", kGame, "--records", (dir / "r.txt").string()}).status == 2);
}

namespace {
void walk(const tinyxml2::XMLElement* e, const std::function<void(const tinyxml2::XMLElement&)>& f) {
  for (; e; e = e->NextSiblingElement()) {
    f(*e);
    walk(e->FirstChildElement(), f);
  }
}
}  // namespace

TEST_CASE("report: a well-formed page whose numbers are the records'", "[records][report]") {
  fs::path dir = scratch("report");
  std::string records = (dir / "r.csv").string(), page = (dir / "report.html").string();
  REQUIRE(keli({"simulate", kGame, "-n", "50", "--seed", "2", "--records", records}).status == 0);
  auto r = keli({"report", records, "-o", page});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::string html = read_text(page);
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("http://www.w3.org/2000/svg") != std::string::npos);
  CHECK(html.find("https:") == std::string::npos);  // nothing fetched
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.Parse(html.c_str(), html.size()) == tinyxml2::XML_SUCCESS);
  auto rows = read_rows(records);
  std::map<std::string, int64_t> wins;
  std::map<std::pair<std::string, int>, int64_t> places;
  std::map<int64_t, int64_t> lengths;
  const std::vector<std::string> seats = {"South", "West", "North", "East"};
  for (const auto& row : rows) {
    for (size_t s = 0; s < 4; ++s) {
      wins[seats[s]] += row.places[s] == 1;
      ++places[{seats[s], row.places[s]}];
    }
    ++lengths[row.decisions];
  }
  int64_t binned = 0, natural = 0, seat_bars = 0;
  for (const auto& row : rows) natural += row.end == sim::End::Rules;
  walk(doc.RootElement(), [&](const tinyxml2::XMLElement& e) {
    std::string cls = e.Attribute("class") ? e.Attribute("class") : "";
    if (cls == "rate" && wins.count(e.Attribute("data-label"))) {
      ++seat_bars;
      CHECK(e.Int64Attribute("data-count") == wins[e.Attribute("data-label")]);
      CHECK(e.Int64Attribute("data-games") == 50);
      CHECK(e.DoubleAttribute("data-lo") <= e.DoubleAttribute("data-rate"));
      CHECK(e.DoubleAttribute("data-rate") <= e.DoubleAttribute("data-hi"));
    }
    if (cls == "place")
      CHECK(e.Int64Attribute("data-games") == places[{e.Attribute("data-seat"), e.IntAttribute("data-place")}]);
    if (cls == "bin") {
      int64_t want = 0;
      for (auto it = lengths.lower_bound(e.Int64Attribute("data-from"));
           it != lengths.end() && it->first <= e.Int64Attribute("data-to"); ++it)
        want += it->second;
      CHECK(e.Int64Attribute("data-games") == want);
      binned += want;
    }
    if (e.Attribute("id", "natural")) CHECK(e.Int64Attribute("data-count") == natural);
  });
  CHECK(seat_bars == 4);
  CHECK(binned == 50);  // every game in one bar
  // One SVG picture, also well formed; and the usage errors.
  std::string svg = (dir / "report.svg").string();
  REQUIRE(keli({"report", records, "-o", svg}).status == 0);
  tinyxml2::XMLDocument pic;
  CHECK(pic.Parse(read_text(svg).c_str()) == tinyxml2::XML_SUCCESS);
  CHECK(keli({"report", records}).status == 2);
  CHECK(keli({"report", records, "-o", (dir / "x.png").string()}).status == 2);
  std::string named_html = (dir / "records.html").string();  // records are read whatever their name
  fs::copy_file(records, named_html);
  auto over = keli({"report", named_html, "-o", named_html});
  CHECK(over.status == 1);
  CHECK(over.err.find("[E710]") != std::string::npos);
  CHECK(read_text(named_html) == read_text(records));
}

}  // namespace keli::test
