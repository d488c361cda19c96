#include <fmt/format.h>
#include "session/game_file.hpp"
#include "runtime/game.hpp"
#include "runtime/rng.hpp"
int main(int argc, char** argv) {
  auto g = keli::GameFile::open(argv[1]);
  for (auto& d : g->diagnostics().all()) fmt::print("{}", keli::diag::render(g->sources(), d));
  if (!g->ok()) return 1;
  keli::diag::Diagnostics dd;
  auto p = g->compile({}, dd);
  for (auto& d : dd.all()) fmt::print("{}", keli::diag::render(g->sources(), d));
  if (!p) return 1;
  keli::runtime::Game game(p);
  try {
  auto s = game.initial();
  keli::runtime::Rng rng(argc > 2 ? atoi(argv[2]) : 1);
  std::vector<keli::runtime::Move> moves;
  while (!game.over(s)) {
    game.legal(s, moves);
    auto& m = moves[rng.below(moves.size())];
    fmt::print("{} ", game.notation(m));
    game.apply(s, m);
    auto f = game.failed_invariants(s);
    if (!f.empty()) { fmt::print("INVARIANT {}\n", f[0]); return 1; }
  }
  fmt::print("\nplaces {} {} ply {}\n", game.places(s)[0], game.places(s)[1], game.ply(s));
  } catch (keli::diag::Error& e) { fmt::print("{}: {}\n", g->sources().where(e.span), e.message); return 1; }
}
