// The hand-written race games and their .keli files must be the same games: random games driven
// by the same stream (dice and choices), with the same legal moves in the same order (rule and
// arguments) and identical states (every variable the native versions mirror) after every step.
//   race_identical_test pahada [GAMES]            games/pahada_keliya.keli, defaults (2,000 games)
//   race_identical_test pagade PLAYERS [GAMES]    games/pagade_kayi_ata.keli, players=PLAYERS (200)
// KELI_NATIVE_MAX_GAMES caps the count (the sanitizer build), as KELI_BATTERY_MAX_GAMES does.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "lockstep.hpp"
#include "pagade_native.hpp"
#include "pahada_native.hpp"

namespace {

namespace rt = keli::runtime;
namespace compile = keli::compile;
using keli::bench::PagadeKayiAta;
using keli::bench::PahadaKeliya;
using keli::bench::lockstep::base;
using keli::bench::lockstep::Diff;
using keli::bench::lockstep::fact_base;
using keli::bench::lockstep::region;

// The native cell numbering must be Keli's site numbering, so that cells compare one to one:
// every position of every track is checked.
template <class CellOf>
void check_tracks(const compile::Program& p, int sites, int tracks, int length, CellOf cell_of) {
  if (p.num_sites != sites) throw std::runtime_error(fmt::format("the game has {} sites, not {}", p.num_sites, sites));
  for (int h = 0; h < tracks; ++h) {
    const auto& path = region(p, "path", h);
    if (static_cast<int>(path.size()) != length)
      throw std::runtime_error(fmt::format("track {} has {} positions, not {}", h, path.size(), length));
    for (int i = 0; i < length; ++i)
      if (path[static_cast<size_t>(i)] != cell_of(h, i))
        throw std::runtime_error(fmt::format("track {} position {}: site {} in keli, {} native", h, i,
                                             path[static_cast<size_t>(i)], cell_of(h, i)));
  }
}

// The game's phases by name, in the order of the native Phase enums.
template <size_t N>
void check_names(const compile::Program& p, const char* const (&phases)[N]) {
  if (p.phases.size() != N) throw std::runtime_error("the game has another number of phases");
  for (size_t i = 0; i < N; ++i)
    if (p.phases[i].name != phases[i]) throw std::runtime_error("phase " + std::to_string(i) + " is not " + phases[i]);
}

bool same_args(const rt::Move& k, std::initializer_list<int> args) {
  if (k.nargs != args.size()) return false;
  int i = 0;
  for (int a : args)
    if (k.args[i++] != a) return false;
  return true;
}

const char* const kPahadaRules[] = {"step", "escort_pair", "pass"};

class PahadaSide {
 public:
  using G = PahadaKeliya;
  explicit PahadaSide(const compile::Program& p)
      : pos_(base(p, "pos", G::kPieces)),
        die_(base(p, "die", 2)),
        escorted_(base(p, "escorted", G::kPlayers)),
        done_(base(p, "done", G::kPlayers)) {
    check_tracks(p, G::kCells, G::kPlayers, G::kHome + 1, [](int h, int i) { return G::cell(h, i); });
    static const char* const kPhases[] = {"throwing", "moving"};
    check_names(p, kPhases);
  }
  void start() { s_ = G::initial(); }
  bool over() const { return s_.over != G::kPlaying; }
  bool limited() const { return s_.over == G::kLimit; }
  bool chance() const { return G::chance(s_); }
  void roll(rt::Rng& rng) { G::roll(s_, rng); }
  int legal() {
    G::legal(s_, m_);
    return m_.n;
  }
  bool same_move(int i, const rt::Move& k, const compile::Program& p) const {
    const G::Move& m = m_.list[static_cast<size_t>(i)];
    if (p.rules.at(static_cast<size_t>(k.rule)).name != kPahadaRules[m.rule]) return false;
    return m.rule == G::kStep ? same_args(k, {m.pc, m.d}) : same_args(k, {});
  }
  std::string move_text(int i) const {
    const G::Move& m = m_.list[static_cast<size_t>(i)];
    return m.rule == G::kStep ? fmt::format("step {} {}", m.pc, m.d) : kPahadaRules[m.rule];
  }
  void apply(int i) { G::apply(s_, m_.list[static_cast<size_t>(i)]); }
  std::string diff(const rt::State& ks) const {
    Diff d(ks);
    for (int pc = 0; pc < G::kPieces; ++pc) d.check("pos", pc, pos_ + pc, s_.pos[pc]);
    for (int i = 0; i < 2; ++i) d.check("die", i, die_ + i, s_.die[i]);
    for (int p = 0; p < G::kPlayers; ++p) {
      d.check("escorted", p, escorted_ + p, s_.escorted[p]);
      d.check("done", p, done_ + p, s_.done[p]);
    }
    d.fixed(s_.mover, s_.phase, s_.over, s_.ply, s_.moves, s_.next_place, s_.places, G::kPlayers);
    return d.first();
  }

 private:
  int pos_, die_, escorted_, done_;
  G::State s_;
  G::Moves m_;
};

const char* const kPagadeRules[] = {"throw", "pass", "enter", "step", "round", "pair", "pair_with", "lose"};

class PagadeSide {
 public:
  using G = PagadeKayiAta;
  PagadeSide(const compile::Program& p, int players)
      : g_(players),
        pos_(base(p, "pos", G::kPieces)),
        free_(base(p, "free", G::kPieces)),
        here_(fact_base(p, "here", G::kCells * players)),  // the fact's kept entries
        die_(base(p, "die", G::kDice)),
        extra_(base(p, "turns_due", 1)),
        done_(base(p, "done", players)) {
    check_tracks(p, G::kCells, G::kArms, G::kHome + 1, [](int h, int i) { return G::cell(h, i); });
    static const char* const kPhases[] = {"turn", "throwing", "moving"};
    check_names(p, kPhases);
    const auto& marked = region(p, "marked_cells");
    for (int c = 0; c < G::kCells; ++c)
      if (G::marked(c) != (std::find(marked.begin(), marked.end(), c) != marked.end()))
        throw std::runtime_error(fmt::format("site {} is marked in only one of them", c));
  }
  void start() { s_ = g_.initial(); }
  bool over() const { return s_.over != G::kPlaying; }
  bool limited() const { return s_.over == G::kLimit; }
  bool chance() const { return g_.chance(s_); }
  void roll(rt::Rng& rng) { g_.roll(s_, rng); }
  int legal() {
    g_.legal(s_, m_);
    return m_.n;
  }
  bool same_move(int i, const rt::Move& k, const compile::Program& p) const {
    const G::Move& m = m_.list[static_cast<size_t>(i)];
    if (p.rules.at(static_cast<size_t>(k.rule)).name != kPagadeRules[m.rule]) return false;
    switch (m.rule) {
      case G::kEnter:
      case G::kStep:
      case G::kRound:
      case G::kPair: return same_args(k, {m.a, m.b});
      case G::kPairWith: return same_args(k, {m.a, m.b, m.c, m.d});
      default: return same_args(k, {});
    }
  }
  std::string move_text(int i) const {
    const G::Move& m = m_.list[static_cast<size_t>(i)];
    return fmt::format("{} {} {} {} {}", kPagadeRules[m.rule], m.a, m.b, m.c, m.d);
  }
  void apply(int i) { g_.apply(s_, m_.list[static_cast<size_t>(i)]); }
  std::string diff(const rt::State& ks) const {
    Diff d(ks);
    const int players = g_.players();
    for (int pc = 0; pc < G::kPieces; ++pc) {
      d.check("pos", pc, pos_ + pc, s_.pos[pc]);
      d.check("free", pc, free_ + pc, 0);  // captured_to = hand: nothing is ever free
    }
    for (int c = 0; c < G::kCells; ++c)
      for (int p = 0; p < players; ++p) d.check("here", c * players + p, here_ + c * players + p, s_.here[c][p]);
    for (int i = 0; i < G::kDice; ++i) d.check("die", i, die_ + i, s_.die[i]);
    d.check("extra", 0, extra_, s_.extra);
    for (int p = 0; p < players; ++p) d.check("done", p, done_ + p, s_.done[p]);
    d.fixed(s_.mover, s_.phase, s_.over, s_.ply, s_.moves, s_.next_place, s_.places, players);
    return d.first();
  }

 private:
  G g_;
  int pos_, free_, here_, die_, extra_, done_;
  G::State s_;
  G::Moves m_;
};

int usage() {
  fmt::print(stderr, "usage: race_identical_test pahada [GAMES] | pagade PLAYERS [GAMES]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  namespace lockstep = keli::bench::lockstep;
  const std::string which = argc > 1 ? argv[1] : "";
  try {
    if (which == "pahada" && argc <= 3) {
      auto program = lockstep::load("games/pahada_keliya.keli", {});
      rt::Game game(program, rt::EngineOptions{});
      PahadaSide native(*program);
      return lockstep::run("pahada_keliya", game, native, lockstep::games(argc > 2 ? std::atoi(argv[2]) : 2000));
    }
    if (which == "pagade" && argc >= 3 && argc <= 4) {
      const int players = std::atoi(argv[2]);
      auto program = lockstep::load("games/pagade_kayi_ata.keli", {{"players", argv[2]}});
      rt::Game game(program, rt::EngineOptions{});
      PagadeSide native(*program, players);
      return lockstep::run(fmt::format("pagade_kayi_ata players={}", players), game, native,
                           lockstep::games(argc > 3 ? std::atoi(argv[3]) : 200));
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", which, e.what());
    return 1;
  } catch (const keli::diag::Error& e) {
    fmt::print(stderr, "{}: keli: {}\n", which, e.message);
    return 1;
  }
  return usage();
}
