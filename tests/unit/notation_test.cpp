// Move notation: the seed games' `reads` texts, pieces' labels, the default notation, alike
// choices offered once, moves read back from their text, and why one is not legal.
#include <catch2/catch.hpp>

#include <algorithm>

#include "support.hpp"

using namespace keli;

namespace {

std::vector<std::string> texts(runtime::Game& g, const runtime::State& s) {
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  std::vector<std::string> out;
  for (const auto& c : g.choices(s, legal)) out.push_back(c.text);
  return out;
}

bool same(const std::string& a, const std::string& b) { return a == b; }

}  // namespace

TEST_CASE("notation: Pahada Keliya reads piece, spaces and die, and alike pieces are one choice", "[notation]") {
  auto p = test::compile(test::source_path("games/pahada_keliya.keli"));
  runtime::Game g(p);
  runtime::State s = g.initial();
  g.apply_roll(s, {3, 3});
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  REQUIRE(legal.size() == 3);  // South's four pieces, two of them on one cell: listed once
  CHECK(texts(g, s) == std::vector<std::string>{"S1 6-9 (3)", "S2 7-10 (3)", "S3 11-14 (3)"});
  CHECK(g.piece_label(s, 3) == "S3");  // alike with S3: read as it
  CHECK(g.piece_label(s, 4) == "E1");
  CHECK(g.call_text(legal[2]) == "step 2 0");  // the lower-numbered of the alike pair
  // read back from its text (and its call), and why a move that reads so is not legal now
  CHECK(g.read_as(s, "S2 7-10 (3)", same, 100000).size() == 2);  // with either die: both show 3
  CHECK(g.read_as(s, "step 1 0", same, 100000).size() == 1);
  auto illegal = g.read_as(s, "E1 6-9 (3)", same, 100000);
  REQUIRE(illegal.size() == 2);  // with either die
  CHECK(g.why_not(s, illegal[0]) == p->rules[illegal[0].rule].params[0].written_filter);
  CHECK(g.why_not(s, legal[0]) == -1);
}

TEST_CASE("notation: Pagade Kayi Ata reads entries with the dice used, Raja Pasu the hole", "[notation]") {
  auto p = test::compile(test::source_path("games/pagade_kayi_ata.keli"), {{"players", "4"}});
  runtime::Game g(p);
  runtime::State s = g.initial();
  CHECK(texts(g, s) == std::vector<std::string>{"throw", "pass"});
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  g.apply(s, legal[0]);
  g.apply_roll(s, {4, 5});
  auto shown = texts(g, s);
  REQUIRE(!shown.empty());
  CHECK(shown[0] == "enter P1.1 with 4+5");
  auto r = test::compile(test::source_path("games/raja_pasu.keli"));
  runtime::Game rg(r);
  runtime::State rs = rg.initial();
  auto sow = texts(rg, rs);
  REQUIRE(sow.size() == 7);
  CHECK(sow[0] == "sow hole 1 (7)");
}

TEST_CASE("notation: without 'reads', the rule's name and its arguments as the rules name them", "[notation]") {
  auto p = test::compile(test::source_path("games/walak_pussa.keli"));
  runtime::Game g(p);
  runtime::State s = g.initial();
  std::vector<runtime::Move> legal;
  g.legal(s, legal);
  REQUIRE(!legal.empty());
  CHECK(g.notation(s, legal[0]) == g.call_text(legal[0]));  // sites by label: the same text
}
