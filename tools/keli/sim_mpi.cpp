// keli simulate --mpi: every rank of mpirun loads the game and plays the positions rank 0 hands it
// (mpi/farm.hpp); each game's record travels to rank 0 as its JSON Lines row and is tallied there
// in game order, as one process tallies it, so the summary and records are the same bytes.
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "agents/agent.hpp"
#include "mpi/farm.hpp"
#include "sim_output.hpp"

namespace keli::cli {

namespace {

// Loads the game with stderr silenced on ranks other than 0, whose diagnostics would repeat rank 0's.
Loaded load_quietly(const Args& a, bool quiet) {
  int saved = quiet ? dup(STDERR_FILENO) : -1;
  int null = quiet ? open("/dev/null", O_WRONLY) : -1;
  if (null >= 0) dup2(null, STDERR_FILENO);
  Loaded l = load(a.files[0], a, false);
  if (saved >= 0) dup2(saved, STDERR_FILENO);
  for (int fd : {saved, null})
    if (fd >= 0) close(fd);
  return l;
}

// The games of positions first .. first+count-1, in words.
std::string games_text(const sim::RunHeader& h, int64_t first, int64_t count) {
  if (count <= 0) return "no games";
  std::string games = count == 1 ? fmt::format("game {}", h.index_of(first))
                                 : fmt::format("games {} to {}", h.index_of(first), h.index_of(first + count - 1));
  return h.shards == 1 ? games : fmt::format("{} (every {}th, of shard {}/{})", games, h.shards, h.shard, h.shards);
}

// A test of failure reports: KELI_MPI_FAIL_RANK=R makes rank R fail at its first game.
bool injected_failure(int rank) {
  const char* v = std::getenv("KELI_MPI_FAIL_RANK");
  return v && std::atoi(v) == rank;
}

}  // namespace

int simulate_mpi(const Args& a, SummaryForm form) {
  if (!mpi::built_with_mpi()) {
    fmt::print(stderr,
               "keli simulate: error: this keli was built without MPI (install libopenmpi-dev and build "
               "again; docs/simulation.md)\n");
    return kFailed;
  }
  mpi::World world;
  const bool lead = world.rank() == 0;
  Loaded l = load_quietly(a, !lead);
  std::vector<std::string> specs;
  if (l.program) specs = seat_players(a, l.program->num_players, "random");
  for (const auto& s : specs) {
    std::string err;
    if (!agents::make_agent(s, *l.program, err)) throw Usage{err};
  }
  if (!l.program) {
    if (lead) mpi::lead(world, 0, "", nullptr, [](const std::string&) {});
    if (!lead) mpi::follow(world, "", nullptr, nullptr, "it could not load the game");
    return kFailed;
  }
  sim::RunHeader h = run_header(l, a, specs);
  std::string hello = sim::header_text(h, sim::RecordFormat::JsonLines);
  hello.pop_back();  // the line break
  sim::GamePlayer player(l.program, h.seed, h.invariants, [&specs](int64_t) { return specs; });
  auto describe = [&](const diag::Error& e) { return error_text(l, a.files[0], e); };
  mpi::Work work = [&](int64_t position) {
    if (injected_failure(world.rank())) throw std::runtime_error("a failure asked for by KELI_MPI_FAIL_RANK");
    sim::GameRecord g = player.play(h.index_of(position));
    std::string row = sim::row_text(sim::to_row(g, h.seed, specs, describe, h.points), sim::RecordFormat::JsonLines);
    row.pop_back();
    return row;
  };
  if (!lead) {
    mpi::follow(world, hello, work, [&](int64_t first, int64_t count) {
      return fmt::format("keli simulate --mpi: error: rank {} crashed while playing {}; the run is incomplete\n",
                         world.rank(), games_text(h, first, count));
    });
    return kOk;
  }
  RecordsOut records;
  if (!records.open(a, h, input_files(l, a))) {
    mpi::lead(world, 0, "", nullptr, [](const std::string&) {});
    return kFailed;
  }
  auto start = std::chrono::steady_clock::now();
  sim::Tally tally(l.program->num_players);
  sim::InOrder in_order(h, [&](const sim::RecordRow& r) {
    tally.add(r);
    records.write(r);
  });
  auto gather = [&](const std::string& line) {
    try {
      in_order.add(sim::row_from_json(line, "a rank's record"));
    } catch (const sim::RecordError& e) {
      throw std::runtime_error(e.where + ": " + e.message);
    }
  };
  auto failures = mpi::lead(world, h.shard_games(), hello, work, gather);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& f : failures)
    fmt::print(stderr,
               "{}: error: rank {} of {} failed: {}; it held {}; no summary is printed, as the run is "
               "incomplete\n",
               a.files[0], f.rank, world.size(), f.message, games_text(h, f.first, f.count));
  if (!failures.empty()) return kFailed;
  if (in_order.emitted() != h.shard_games())
    throw std::runtime_error(fmt::format("{} of {} games came back", in_order.emitted(), h.shard_games()));
  if (!records.commit()) return kFailed;
  sim::Report r = tally.report();
  return print_summary(h, r, form,
                       fmt::format("time: {:.2f} s on {} rank{}, {:.0f} games/s", secs, world.size(),
                                   world.size() == 1 ? "" : "s", secs > 0 ? static_cast<double>(r.games) / secs : 0.0));
}

}  // namespace keli::cli
