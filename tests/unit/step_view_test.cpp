// What a view tells of the last steps (render/step_view.hpp) and the picture's stores and pieces:
// stores drawn as wells at the ends of their seats' rows, each piece's number on its disc, a
// piece's way along its track, the dice of a throw marked used as they are played, and a game
// site room's view carrying them; the display forms and docs/language.md's table agree.
#include <catch2/catch.hpp>
#include <tinyxml2.h>

#include <algorithm>
#include <functional>
#include <set>

#include "lang/displays.hpp"
#include "render/step_view.hpp"
#include "render/svg.hpp"
#include "serve/room.hpp"
#include "support.hpp"

using namespace keli;

namespace {

// Every element of the picture with `cls`, depth first.
std::vector<const tinyxml2::XMLElement*> with_class(const tinyxml2::XMLDocument& doc, const std::string& cls) {
  std::vector<const tinyxml2::XMLElement*> out;
  std::function<void(const tinyxml2::XMLElement*)> walk = [&](const tinyxml2::XMLElement* e) {
    for (; e; e = e->NextSiblingElement()) {
      if (const char* c = e->Attribute("class"); c && cls == c) out.push_back(e);
      walk(e->FirstChildElement());
    }
  };
  walk(doc.RootElement());
  return out;
}

struct Played {
  std::shared_ptr<const compile::Program> p;
  std::unique_ptr<runtime::Game> g;
  runtime::State s;
};

Played start(const std::string& game) {
  Played out;
  out.p = test::compile(test::source_path("games/" + game + ".keli"));
  out.g = std::make_unique<runtime::Game>(out.p);
  out.s = out.g->initial();
  return out;
}

// Steps of a seeded game (throws drawn, the first legal move chosen) until `stop` says so.
void play_until(Played& x, const std::function<bool(const runtime::State& before, const runtime::State& after)>& stop,
                int max_steps = 3000) {
  runtime::Rng rng(11);
  for (int n = 0; n < max_steps && !x.g->over(x.s); ++n) {
    runtime::State before = x.s;
    if (x.g->chance(x.s)) {
      x.g->apply_roll(x.s, x.g->sample_roll(x.s, rng));
    } else {
      std::vector<runtime::Move> legal;
      x.g->legal(x.s, legal);
      x.g->apply(x.s, legal[rng.below(legal.size())]);
    }
    if (stop(before, x.s)) return;
  }
  FAIL("the game never came to the step looked for");
}

int first_track_of(const std::string& game) {
  auto f = GameFile::open(test::source_path("games/" + game + ".keli"));
  return render::first_track(f->checked());
}

}  // namespace

TEST_CASE("stores are drawn as wells at the ends of their seats' rows, only for display VAR per player", "[render]") {
  Played x = start("raja_pasu");
  const compile::VarInfo& store = x.p->vars.at(static_cast<size_t>(x.p->display_stores));
  play_until(x, [&](const runtime::State&, const runtime::State& s) {
    return s[store.base] > 0 && s[store.base + 1] > 0 && s[store.base] != s[store.base + 1];
  });
  std::string svg = render::board_svg(*x.p, x.s, {});
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.Parse(svg.c_str(), svg.size()) == tinyxml2::XML_SUCCESS);
  auto wells = with_class(doc, "store");
  REQUIRE(wells.size() == 2);
  CHECK(with_class(doc, "store-count").size() == 2);
  double lo = 1e9, hi = -1e9;  // the holes' centres, left to right
  for (const auto* site : with_class(doc, "site"))
    lo = std::min(lo, site->DoubleAttribute("cx")), hi = std::max(hi, site->DoubleAttribute("cx"));
  for (const auto* w : wells) {
    int seat = w->IntAttribute("data-seat", -1);
    INFO("seat " << seat);
    REQUIRE((seat == 0 || seat == 1));
    CHECK(w->IntAttribute("data-count", -1) == x.s[store.base + seat]);
    const tinyxml2::XMLElement* rect = w->FirstChildElement("rect");
    REQUIRE(rect);
    double cx = rect->DoubleAttribute("x") + rect->DoubleAttribute("width") / 2;
    // South's row runs left to right: its store at the right end; North's at the left, as on a
    // mancala board; each a tall well.
    CHECK((seat == 0 ? cx > hi : cx < lo));
    CHECK(rect->DoubleAttribute("height") > rect->DoubleAttribute("width"));
  }
  CHECK(svg.find("store: South") == std::string::npos);  // drawn, so not in the legend's lines

  Played kalah = start("kalah");  // stores that are sites of the board: no second store
  CHECK(kalah.p->display_stores < 0);
  CHECK(render::board_svg(*kalah.p, kalah.s, {}).find("class=\"store\"") == std::string::npos);
}

TEST_CASE("every piece drawn carries its number: data-piece, and data-pieces for a stack", "[render]") {
  Played x = start("pahada_keliya");
  std::string svg = render::board_svg(*x.p, x.s, {});
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.Parse(svg.c_str(), svg.size()) == tinyxml2::XML_SUCCESS);
  std::multiset<int> seen;
  auto places = render::piece_places(*x.p, x.s);
  for (const auto* e : with_class(doc, "piece")) {
    REQUIRE(e->Attribute("data-piece"));
    std::istringstream all(e->Attribute("data-pieces"));
    std::vector<int> stack;
    for (int pc; all >> pc;) stack.push_back(pc);
    CHECK(static_cast<int>(stack.size()) == e->IntAttribute("data-count"));
    CHECK(stack.front() == e->IntAttribute("data-piece"));
    for (int pc : stack) CHECK(places.at(static_cast<size_t>(pc)).owner == e->IntAttribute("data-seat"));
    seen.insert(stack.begin(), stack.end());
  }
  CHECK(seen.size() == static_cast<size_t>(x.p->num_pieces));  // every piece, each once
  CHECK(std::set<int>(seen.begin(), seen.end()).size() == seen.size());
}

TEST_CASE("a piece's way in a step follows its track, and one sent back jumps", "[render]") {
  Played x = start("pahada_keliya");
  const int first_track = first_track_of("pahada_keliya");
  REQUIRE(first_track >= 0);
  const auto& path = x.p->region_tables.at(static_cast<size_t>(first_track));  // path per 0..15
  int long_ways = 0;
  play_until(x, [&](const runtime::State& before, const runtime::State& after) {
    for (const auto& slide : render::slides(*x.p, first_track, before, after)) {
      auto was = render::piece_places(*x.p, before), now = render::piece_places(*x.p, after);
      const size_t pc = static_cast<size_t>(slide.piece);
      REQUIRE(!slide.path.empty());
      CHECK(slide.path.front() == (was[pc].site >= 0 ? was[pc].site : now[pc].site));
      CHECK(slide.path.back() == (now[pc].site >= 0 ? now[pc].site : was[pc].site));
      if (was[pc].site < 0 || now[pc].site < 0) {  // put on or taken off the board: its one site
        CHECK(slide.path.size() == 1);
        continue;
      }
      if (now[pc].owner != before[compile::kMover]) {  // sent back by another seat's move
        CHECK(slide.path.size() == 2);
        continue;
      }
      // The owner's track, site after site, from the old site to the new one.
      const auto& track = x.p->regions.at(static_cast<size_t>(path.base + now[pc].owner));
      auto at = std::find(track.begin(), track.end(), slide.path.front());
      REQUIRE(at != track.end());
      for (size_t k = 0; k < slide.path.size(); ++k, ++at) {
        REQUIRE(at != track.end());
        CHECK(*at == slide.path[k]);
      }
      if (slide.path.size() > 3) ++long_ways;
    }
    return long_ways >= 5;
  });

  // Pagade Kayi Ata: a track per home arm, not per seat; a way of more than two sites is still a
  // stretch of one of them, site after site.
  Played pagade = start("pagade_kayi_ata_4_players");
  const int pagade_tracks = first_track_of("pagade_kayi_ata_4_players");
  const auto& arms = pagade.p->region_tables.at(static_cast<size_t>(pagade_tracks));
  long_ways = 0;
  play_until(pagade, [&](const runtime::State& before, const runtime::State& after) {
    for (const auto& slide : render::slides(*pagade.p, pagade_tracks, before, after)) {
      if (slide.path.size() <= 2) continue;
      bool stretch = false;
      for (int k = 0; k < arms.size() && !stretch; ++k) {
        const auto& track = pagade.p->regions.at(static_cast<size_t>(arms.base + k));
        stretch = std::search(track.begin(), track.end(), slide.path.begin(), slide.path.end()) != track.end();
      }
      CHECK(stretch);
      ++long_ways;
    }
    return long_ways >= 5;
  });
}

TEST_CASE("the dice in hand are marked used as they are played, and a double is four dice", "[render]") {
  // Pahada Keliya (stdlib/dice.keli's `display hand die`): two dice, one played.
  Played x = start("pahada_keliya");
  runtime::State after_throw;
  std::vector<int32_t> thrown;
  play_until(x, [&](const runtime::State& before, const runtime::State& after) {
    if (x.g->chance(before)) {
      after_throw = after;
      thrown = {after[x.p->vars[x.p->display_hand].base], after[x.p->vars[x.p->display_hand].base + 1]};
      return false;
    }
    auto dice = render::shown_dice(*x.p, thrown, after_throw, after, true);
    return dice.values.size() == 2 && std::count(dice.used.begin(), dice.used.end(), true) == 1;
  });
  auto fresh = render::shown_dice(*x.p, thrown, after_throw, after_throw, false);
  CHECK(fresh.values == thrown);
  CHECK(fresh.used == std::vector<bool>{false, false});

  // Backgammon: a double 3 gives four dice, one used after one move.
  Played b = start("backgammon");
  b.g->apply_roll(b.s, {5, 2});  // the opening throw
  play_until(b, [&](const runtime::State&, const runtime::State& s) { return b.g->chance(s); });
  b.g->apply_roll(b.s, {3, 3});
  runtime::State thrown_double = b.s;
  auto four = render::shown_dice(*b.p, {3, 3}, thrown_double, b.s, false);
  CHECK(four.values == std::vector<int32_t>{3, 3, 3, 3});
  CHECK(four.used == std::vector<bool>{false, false, false, false});
  std::vector<runtime::Move> legal;
  b.g->legal(b.s, legal);
  REQUIRE(!legal.empty());
  b.g->apply(b.s, legal[0]);
  CHECK(render::shown_dice(*b.p, {3, 3}, thrown_double, b.s, true).used ==
        std::vector<bool>{true, false, false, false});

  // Without `display hand`: the thrown values, all used once a move is made.
  Played ludo = start("ludo");
  REQUIRE(ludo.p->display_hand < 0);
  CHECK(render::shown_dice(*ludo.p, {4}, ludo.s, ludo.s, false).used == std::vector<bool>{false});
  CHECK(render::shown_dice(*ludo.p, {4}, ludo.s, ludo.s, true).used == std::vector<bool>{true});
}

TEST_CASE("a room's view carries the dice, which are used, and the pieces' ways", "[serve]") {
  serve::Store store(":memory:");
  serve::RoomRecord rec{"slides", "pahada_keliya", "{}", 0, "127.0.0.1", false, "", {}, {}};
  for (int i = 0; i < 4; ++i) rec.seats.push_back({i, "computer", "random", "", ""});
  store.add_room(rec);
  auto game = api::Game::load(test::source_path("games/pahada_keliya.keli"), {}, runtime::EngineOptions{});
  serve::Room room(rec, game, store);
  bool thrown = false, slid = false, marked = false;
  for (int n = 0; n < 400 && !(thrown && slid && marked); ++n) {
    const bool throw_next = room.view(-1)["chance"] == true;
    REQUIRE(room.advance(1) == 1);
    util::Json v = room.view(-1);
    REQUIRE(v.contains("dice"));
    REQUIRE(v["dice_used"].size() == v["dice"].size());
    if (throw_next) {
      CHECK(v["dice"].size() == 2);
      CHECK(v["dice_used"] == util::Json::array({false, false}));
      CHECK(!v.contains("slides"));  // a throw moves no piece
      thrown = true;
      continue;
    }
    marked = marked || v["dice_used"][0] == true || v["dice_used"][1] == true;
    if (!v.contains("slides")) continue;
    for (const auto& s : v["slides"]) {
      CHECK(s["piece"].get<int>() >= 0);
      CHECK(!s["path"].empty());
      slid = slid || s["path"].size() > 2;
    }
  }
  CHECK(thrown);
  CHECK(slid);
  CHECK(marked);
}

TEST_CASE("docs/language.md's display table has every display form", "[render][vocabulary]") {
  const std::string doc = test::read_text(test::source_path("docs/language.md"));
  for (int i = 0; i < static_cast<int>(lang::Display::count_); ++i) {
    const auto& d = lang::display_info(static_cast<lang::Display>(i));
    INFO(d.syntax << " (" << d.names << ")");
    CHECK(doc.find(std::string("| `") + d.syntax + "` (" + d.names) != std::string::npos);
  }
}
