// keli render: every game's board as SVG for several parameter sets parses as XML and holds one
// shape per site; counts and pieces match the position; a trace's step is drawn, read only up
// to that step; and the command's errors.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "render/svg.hpp"
#include "runtime/machine.hpp"
#include "support.hpp"
#include "util/json_read.hpp"
#include "trace/reader.hpp"

namespace {
namespace fs = std::filesystem;

// Every element below `e`, depth first.
void walk(const tinyxml2::XMLElement* e, const std::function<void(const tinyxml2::XMLElement&)>& f) {
  for (; e; e = e->NextSiblingElement()) {
    f(*e);
    walk(e->FirstChildElement(), f);
  }
}

struct Parsed {
  std::map<int, int> sites;           // data-site -> how many class="site" elements name it
  std::map<int, std::string> values;  // data-site -> the count drawn in it
  std::map<int, int> pieces;          // seat -> pieces drawn
};

// Parses the picture strictly (it must be well-formed XML with an <svg> root) and collects it.
Parsed parse_svg(const std::string& text) {
  tinyxml2::XMLDocument doc;
  INFO(text.substr(0, 400));
  REQUIRE(doc.Parse(text.c_str(), text.size()) == tinyxml2::XML_SUCCESS);
  REQUIRE(doc.RootElement() != nullptr);
  REQUIRE(std::string(doc.RootElement()->Name()) == "svg");
  REQUIRE(doc.RootElement()->Attribute("xmlns", "http://www.w3.org/2000/svg"));
  Parsed out;
  walk(doc.RootElement(), [&](const tinyxml2::XMLElement& e) {
    const char* cls = e.Attribute("class");
    if (!cls) return;
    if (std::string(cls) == "site") ++out.sites[e.IntAttribute("data-site", -1)];
    if (std::string(cls) == "value") out.values[e.IntAttribute("data-site", -1)] = e.GetText() ? e.GetText() : "";
    if (std::string(cls) == "piece") out.pieces[e.IntAttribute("data-seat", -1)] += e.IntAttribute("data-count", 0);
  });
  return out;
}

// Defaults, then one parameter at a time changed: each choice, each bool flipped, the ends of
// each int's allowed values.
std::vector<keli::compile::ParamSettings> parameter_sets(const keli::GameFile& g) {
  std::vector<keli::compile::ParamSettings> out = {{}};
  for (const auto* d : g.checked().params) {
    std::vector<std::string> values;
    if (d->ptype == keli::ast::ParamType::Bool)
      values = {"false", "true"};
    else if (d->ptype == keli::ast::ParamType::Enum)
      values = d->choices;
    else if (!d->allowed.empty())
      values = {std::to_string(d->allowed.front()->value), std::to_string(d->allowed.back()->value)};
    else if (d->lo && d->hi && d->lo->kind == keli::ast::ExprKind::Int && d->hi->kind == keli::ast::ExprKind::Int)
      values = {std::to_string(d->lo->value), std::to_string(d->hi->value)};
    for (const auto& v : values) out.push_back({{d->name, v}});
  }
  return out;
}

// The position's own counts and pieces, for comparison with what the picture shows.
void check_position(const keli::compile::Program& p, const keli::runtime::State& s, const Parsed& svg) {
  REQUIRE(static_cast<int>(svg.sites.size()) == p.num_sites);
  for (const auto& [site, n] : svg.sites) {
    INFO("site " << site);
    CHECK((site >= 0 && site < p.num_sites));
    CHECK(n == 1);
  }
  if (p.display >= 0 && p.vars[p.display].kind == keli::lang::ValueKind::Player) {
    // A seat per site: that seat's token where one stands, nothing where none does.
    std::map<int, int> expect;
    for (int i = 0; i < p.num_sites; ++i)
      if (int32_t x = s[p.vars[p.display].base + i]; x >= 0 && x < p.num_players) ++expect[x];
    CHECK(svg.values.empty());
    CHECK(svg.pieces == expect);
  } else if (p.display >= 0) {
    REQUIRE(static_cast<int>(svg.values.size()) == p.num_sites);
    for (int i = 0; i < p.num_sites; ++i) CHECK(svg.values.at(i) == std::to_string(s[p.vars[p.display].base + i]));
  }
  if (p.piece_site >= 0 && p.piece_owner >= 0) {
    std::map<int, int> expect;
    keli::runtime::State copy = s;
    keli::runtime::Machine m(p);
    m.bind(copy.data());
    for (int pc = 0; pc < p.num_pieces; ++pc) {
      int64_t arg = pc, site = m.call(p.piece_site, &arg, 1), owner = m.call(p.piece_owner, &arg, 1);
      if (site >= 0 && site < p.num_sites && owner >= 0 && owner < p.num_players) ++expect[static_cast<int>(owner)];
    }
    CHECK(svg.pieces == expect);
  }
}

std::string temp(const std::string& name) {
  return (fs::temp_directory_path() / fmt::format("keli_render_{}_{}", getpid(), name)).string();
}

}  // namespace

TEST_CASE("every game's board renders as SVG with one shape per site, for several parameter sets", "[render]") {
  for (const auto& path : keli::test::game_files()) {
    auto g = keli::GameFile::open(path);
    REQUIRE(g->ok());
    int first_track = g->checked().tracks.empty() ? -1 : static_cast<int>(g->checked().regions.size());
    for (const auto& settings : parameter_sets(*g)) {
      std::string shown;
      for (const auto& [n, v] : settings) shown += n + "=" + v + " ";
      INFO(path << " " << shown);
      auto p = keli::test::compile(path, settings);
      keli::runtime::Game game(p);
      auto s = game.initial();
      keli::render::SvgOptions options;
      options.first_track = first_track;
      options.caption = "the start position";
      std::string svg = keli::render::board_svg(*p, s, options);
      check_position(*p, s, parse_svg(svg));
      CHECK(svg.find("the start position") != std::string::npos);
    }
  }
}

TEST_CASE("sites sharing a place, and a board with no positions, still get one shape each", "[render]") {
  // Every site at one point: drawn in order on a grid, each its own shape; well-formed.
  keli::compile::Program p;
  p.game_name = "A <test> & \"quotes\"";
  p.num_players = 2;
  p.seat_names = {"Ann", "Ann too"};  // clashing initials: tokens are numbered
  for (int i = 0; i < 9; ++i) p.sites.push_back({5, 5, fmt::format("s{}", i), "", 0});
  p.num_sites = 9;
  p.phases.push_back({});
  keli::runtime::State s(keli::compile::kPlaces + 2, 0);
  auto parsed = parse_svg(keli::render::board_svg(p, s));
  CHECK(parsed.sites.size() == 9);
  // Three sites on one place among others: all drawn, no two at the same centre.
  p.sites[1] = p.sites[2] = p.sites[3] = {0, 0, "x", "", 0};
  for (int i = 4; i < 9; ++i) p.sites[i] = {i, 0, "y", "", 0};
  std::string svg = keli::render::board_svg(p, s);
  parsed = parse_svg(svg);
  CHECK(parsed.sites.size() == 9);
  CHECK(svg.find("1 place(s) hold several sites") != std::string::npos);
}

TEST_CASE("keli render --trace --ply draws that step, reading the trace only up to it", "[render]") {
  std::string trace = temp("raja.jsonl"), out = temp("raja.svg");
  auto run = keli::test::keli({"run", "games/raja_pasu.keli", "--seed", "7", "--param", "holes=5", "--quiet",
                               "--trace-every", "1", "--trace", trace});
  REQUIRE(run.status == 0);
  std::vector<std::string> lines;
  {
    std::ifstream in(trace);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  REQUIRE(lines.size() > 40);
  for (int ply : {0, 1, 17, 30}) {
    INFO("ply " << ply);
    auto r =
        keli::test::keli({"render", "games/raja_pasu.keli", "--trace", trace, "--ply", std::to_string(ply), "-o", out});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find(fmt::format("step {}", ply)) != std::string::npos);
    std::string svg = keli::test::read_text(out);
    Parsed parsed = parse_svg(svg);
    REQUIRE(parsed.sites.size() == 10);
    // The counts drawn are the ones the trace records after that step (its line ply + 1).
    if (ply > 0) {
      keli::util::Json n;
      keli::util::JsonError err;
      REQUIRE(keli::util::parse_json(lines[ply], n, err));
      REQUIRE(n["ply"] == ply);
      for (int i = 0; i < 10; ++i) CHECK(parsed.values.at(i) == n["state"]["counters"][i].dump());
    }
  }
  // Only the lines up to the step are read.
  keli::SourceSet src;
  keli::diag::Diagnostics d;
  keli::trace::Reader reader;
  REQUIRE(reader.open(trace, d, src));
  auto p = keli::test::compile(keli::test::source_path("games/raja_pasu.keli"), reader.params());
  REQUIRE(reader.start(p));
  while (reader.ply() < 12) REQUIRE(reader.next() == keli::trace::Reader::Next::Step);
  CHECK(reader.line() == 13);
  CHECK(!reader.last_step().empty());

  // The default is the last step, whose result line is read and checked too.
  auto last = keli::test::keli({"render", "games/raja_pasu.keli", "--trace", trace, "-o", out});
  REQUIRE(last.status == 0);
  CHECK(last.out.find("(the last)") != std::string::npos);
  CHECK(keli::test::read_text(out).find("game over") != std::string::npos);

  // Past the end, another game's trace, a tampered trace.
  auto past = keli::test::keli({"render", "games/raja_pasu.keli", "--trace", trace, "--ply", "100000", "-o", out});
  CHECK(past.status == 1);
  CHECK(past.err.find("past the end of the trace") != std::string::npos);
  auto other = keli::test::keli({"render", "games/pahada_keliya.keli", "--trace", trace, "-o", out});
  CHECK(other.status == 1);
  CHECK(other.err.find("the trace is of 'Raja Pasu'") != std::string::npos);
  lines[5] = "{\"ply\":4,\"player\":0,\"move\":\"sow 99\",\"rule\":\"sow\",\"args\":[99],\"state\":{}}";
  std::string bad = temp("bad.jsonl");
  {
    std::ofstream f(bad);
    for (const auto& l : lines) f << l << "\n";
  }
  auto tampered = keli::test::keli({"render", "games/raja_pasu.keli", "--trace", bad, "--ply", "20", "-o", out});
  CHECK(tampered.status == 1);
  CHECK(tampered.err.find(":6:1: error: the move 'sow 99' is not legal here [E701]") != std::string::npos);
  // ... which does not matter when the step wanted comes before it.
  CHECK(keli::test::keli({"render", "games/raja_pasu.keli", "--trace", bad, "--ply", "3", "-o", out}).status == 0);
  fs::remove(trace);
  fs::remove(bad);
  fs::remove(out);
}

TEST_CASE("keli render: usage errors exit 2, bad input 1", "[render]") {
  std::string out = temp("usage.svg");
  CHECK(keli::test::keli({"render", "games/raja_pasu.keli"}).status == 2);  // no -o
  CHECK(keli::test::keli({"render", "-o", out}).status == 2);               // no file
  CHECK(keli::test::keli({"render", "games/raja_pasu.keli", "--ply", "3", "-o", out}).status == 2);
  CHECK(keli::test::keli({"render", "games/raja_pasu.keli", "--trace", "t.jsonl", "--param", "holes=5", "-o", out})
            .status == 2);
  auto neg = keli::test::keli({"render", "games/raja_pasu.keli", "--trace", "t.jsonl", "--ply", "-1", "-o", out});
  CHECK(neg.status == 2);
  CHECK(neg.err.find("--ply takes a step number") != std::string::npos);
  auto unwritable = keli::test::keli({"render", "games/raja_pasu.keli", "-o", "/nonexistent-folder/x.svg"});
  CHECK(unwritable.status == 1);
  CHECK(unwritable.err.find("cannot write the picture") != std::string::npos);
  CHECK(keli::test::keli({"render", "games/raja_pasu.keli", "--param", "holes=99", "-o", out}).status == 1);
  CHECK(keli::test::keli({"render", "games/raja_pasu.keli", "--trace", "/nonexistent.jsonl", "-o", out}).status == 1);
  auto ok = keli::test::keli({"render", "games/pagade_kayi_ata.keli", "--param", "players=4", "-o", "-"});
  CHECK(ok.status == 0);
  CHECK(parse_svg(ok.out).sites.size() == 385);
  CHECK(!fs::exists(out));
}
