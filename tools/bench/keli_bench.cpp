// Google Benchmarks of the runtime (Keli issue 6): random playouts of every game in games/ (and
// Raja Pasu as a single round), the hand-written Raja Pasu (a match and a single round), Pahada
// Keliya and Pagade Kayi Ata (16 and 4 players) for comparison, and heap allocations per step
// during playouts (target zero), counted by replacing the global operator new in this binary only.
//   build/tools/bench/keli_bench                          all of them
//   build/tools/bench/keli_bench --benchmark_filter=raja  Keli's Raja Pasu beside the native one
// Each game has two rows: keli/NAME on the interpreter, keli-native/NAME on the native engine
// (compiled into $KELI_NATIVE_CACHE, else the user's cache, before the row is timed). The
// hand-written rows (keli*/kalah_openspiel is tools/bench/kalah.keli, OpenSpiel's Kalah) are
// native/raja_pasu (beside native/raja_pasu_single_round and the rows
// keli*/raja_pasu_single_round), native/pahada_keliya, native/pagade_kayi_ata and
// native/pagade_kayi_ata_4_players (beside games/pagade_kayi_ata_4_players.keli's rows).
// Counters: playouts/s (items_per_second), decisions/s, steps/s, decisions/game, state_bytes,
// allocs/step and allocs/game (heap allocations during the moves of a playout, after the start).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <new>

#include "pagade_native.hpp"
#include "pahada_native.hpp"
#include "raja_pasu_native.hpp"
#include "runtime/game.hpp"
#include "session/game_file.hpp"

// Every allocation of the process passes here; the count is read around the move loop.
namespace {
std::atomic<uint64_t> g_allocations{0};
}

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

namespace rt = keli::runtime;

// One random playout as keli bench plays it (uniform choice, dice by sample_roll); counts the
// allocations made after the start position, i.e. by legal/apply/sample_roll/apply_roll.
struct PlayoutCount {
  int64_t decisions = 0, steps = 0;
  uint64_t allocations = 0;
};
PlayoutCount play(rt::Game& game, rt::Rng& rng, std::vector<rt::Move>& legal) {
  PlayoutCount c;
  rt::State s = game.initial();
  uint64_t before = g_allocations.load(std::memory_order_relaxed);
  while (!game.over(s)) {
    if (game.chance(s)) {
      game.apply_roll(s, game.sample_roll(s, rng));
    } else {
      game.legal(s, legal);
      game.apply(s, legal[rng.below(legal.size())]);
    }
  }
  c.allocations = g_allocations.load(std::memory_order_relaxed) - before;
  c.decisions = game.moves(s);
  c.steps = game.ply(s);
  return c;
}

void keli_playouts(benchmark::State& state, std::shared_ptr<const keli::compile::Program> program, rt::Engine engine) {
  const char* cache = std::getenv("KELI_NATIVE_CACHE");
  rt::Game game(program, {engine, cache ? cache : ""});
  std::vector<rt::Move> legal;
  legal.reserve(1024);  // grown once, outside the measured loop
  rt::Rng rng(1);
  int64_t games = 0, decisions = 0, steps = 0;
  uint64_t allocations = 0;
  for (auto _ : state) {
    PlayoutCount c = play(game, rng, legal);
    ++games;
    decisions += c.decisions;
    steps += c.steps;
    allocations += c.allocations;
  }
  state.SetItemsProcessed(games);
  state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["decisions/game"] = static_cast<double>(decisions) / static_cast<double>(std::max<int64_t>(1, games));
  state.counters["state_bytes"] = static_cast<double>(program->state_size * sizeof(int32_t));
  state.counters["allocs/step"] = static_cast<double>(allocations) / static_cast<double>(std::max<int64_t>(1, steps));
  state.counters["allocs/game"] = static_cast<double>(allocations) / static_cast<double>(std::max<int64_t>(1, games));
}

// A hand-written baseline (raja_pasu_native.hpp, pahada_native.hpp, pagade_native.hpp) with the
// same counters: `one` plays a random game from the start and says how many decisions and steps.
template <class One>
void native_playouts(benchmark::State& state, One one, size_t state_bytes) {
  rt::Rng rng(1);
  int64_t games = 0, decisions = 0, steps = 0;
  for (auto _ : state) {
    PlayoutCount c = one(rng);
    decisions += c.decisions;
    steps += c.steps;
    ++games;
  }
  state.SetItemsProcessed(games);
  state.counters["decisions/s"] = benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.counters["steps/s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
  state.counters["decisions/game"] = static_cast<double>(decisions) / static_cast<double>(std::max<int64_t>(1, games));
  state.counters["state_bytes"] = static_cast<double>(state_bytes);
}

// A baseline whose State and playout are static members.
template <class Game>
void static_baseline(benchmark::State& state) {
  typename Game::State s;
  native_playouts(
      state,
      [&](rt::Rng& rng) {
        int d = Game::playout(rng, s);
        benchmark::DoNotOptimize(s);
        return PlayoutCount{d, s.ply, 0};
      },
      sizeof s);
}

void register_native() {
  using keli::bench::PagadeKayiAta;
  using keli::bench::PahadaKeliya;
  using keli::bench::RajaPasu;
  for (auto rounds : {RajaPasu::Rounds::Match, RajaPasu::Rounds::Single}) {
    const char* name = rounds == RajaPasu::Rounds::Match ? "native/raja_pasu" : "native/raja_pasu_single_round";
    benchmark::RegisterBenchmark(name, [rounds](benchmark::State& state) {
      const RajaPasu game(rounds);
      RajaPasu::State s;
      native_playouts(
          state,
          [&](rt::Rng& rng) {
            int d = game.playout(rng, s);
            benchmark::DoNotOptimize(s);
            return PlayoutCount{d, d, 0};  // no dice: every step is a decision
          },
          sizeof s);
    })->Unit(benchmark::kMicrosecond);
  }
  benchmark::RegisterBenchmark("native/pahada_keliya", static_baseline<PahadaKeliya>)->Unit(benchmark::kMicrosecond);
  for (int players : {16, 4}) {
    std::string name =
        players == 16 ? "native/pagade_kayi_ata" : fmt::format("native/pagade_kayi_ata_{}_players", players);
    benchmark::RegisterBenchmark(name.c_str(), [players](benchmark::State& state) {
      const PagadeKayiAta game(players);
      auto s = std::make_unique<PagadeKayiAta::State>();  // a few kilobytes, allocated once
      native_playouts(
          state,
          [&](rt::Rng& rng) {
            int d = game.playout(rng, *s);
            benchmark::DoNotOptimize(*s);
            return PlayoutCount{d, s->ply, 0};
          },
          sizeof *s);
    })->Unit(benchmark::kMicrosecond);
  }
}

// The rows keli/NAME (the interpreter) and keli-native/NAME (the native engine).
void register_keli(const std::string& name, const std::shared_ptr<const keli::compile::Program>& program) {
  benchmark::RegisterBenchmark(("keli/" + name).c_str(), keli_playouts, program, rt::Engine::Interp)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("keli-native/" + name).c_str(), keli_playouts, program, rt::Engine::Native)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(KELI_SOURCE_DIR) / "games"))
    if (e.path().extension() == ".keli") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  auto load = [](const std::string& f, const keli::compile::ParamSettings& settings) {
    auto file = keli::GameFile::open(f);
    keli::diag::Diagnostics d;
    auto program = file->ok() ? file->compile(settings, d) : nullptr;
    if (!program) fmt::print(stderr, "{}: does not compile with its defaults; not benchmarked\n", f);
    return program;
  };
  for (const auto& f : files)
    if (auto program = load(f, {})) register_keli(fs::path(f).stem().string(), program);
  // Option sets beside the defaults: OpenSpiel's rules, against its hand-written speed
  // (docs/performance.md; Kalah's is tools/bench/kalah.keli), and Raja Pasu as one round too,
  // beside the hand-written single round (issue 13's two targets).
  struct Extra {
    const char* row;
    const char* file;
    keli::compile::ParamSettings settings;
  };
  const Extra extras[] = {
      {"kalah_openspiel", "tools/bench/kalah.keli", {}},
      {"raja_pasu_single_round", "games/raja_pasu.keli", {{"rounds", "single"}}},
      {"go_openspiel", "games/go.keli", {{"scored_after", "162"}}},
      {"nine_mens_morris_openspiel", "games/nine_mens_morris.keli", {{"rules", "openspiel"}}},
      {"backgammon_openspiel", "games/backgammon.keli", {{"rules", "openspiel"}, {"scoring", "single"}}},
  };
  for (const Extra& x : extras)
    if (auto program = load((fs::path(KELI_SOURCE_DIR) / x.file).string(), x.settings)) register_keli(x.row, program);
  register_native();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
