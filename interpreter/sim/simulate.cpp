// The parallel runner: threads take game numbers from a shared counter and hand each record to
// the caller's sink as it ends; no record is kept, so memory does not grow with the game count.
#include "sim/simulate.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

namespace keli::sim {

uint64_t game_seed(uint64_t seed, int64_t index) {
  // Two SplitMix64 steps: the run's seed is scrambled first so that (seed, i) and (seed + 1, i - 1)
  // do not collide as a plain sum would.
  uint64_t base = runtime::Rng(seed).next();
  return runtime::Rng(base ^ (static_cast<uint64_t>(index) * 0xd1b54a32d192ed03ULL)).next();
}

namespace {

// Plays game `index` of the run, seeded from it, on the thread that made it.
using PlayIndex = std::function<GameRecord(int64_t index)>;

// make_play is called once on each worker thread; the function it returns is that thread's alone,
// so it may own per-thread state such as its Game and agents.
void run_impl(const RunOptions& opts, const std::function<PlayIndex()>& make_play, const Sink& sink) {
  RunHeader shard;  // only for its arithmetic of shards
  shard.games = std::max<int64_t>(0, opts.games);
  shard.shard = opts.shard;
  shard.shards = opts.shards;
  const int64_t total = shard.shard_games();
  std::mutex sink_mu;
  const int threads = static_cast<int>(std::clamp<int64_t>(opts.threads, 1, std::max<int64_t>(1, total)));
  std::atomic<int64_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable cv;
  std::exception_ptr failure;
  auto worker = [&] {
    try {
      PlayIndex play = make_play();
      for (int64_t k; !stop.load(std::memory_order_relaxed) && (k = next.fetch_add(1)) < total;) {
        int64_t i = shard.index_of(k);
        GameRecord r = play(i);
        r.index = i;
        {
          std::lock_guard<std::mutex> lock(sink_mu);
          sink(r);
        }
        done.fetch_add(1);
      }
    } catch (...) {
      // Anything but a game's own runtime error (recorded per game) stops the whole run.
      std::lock_guard<std::mutex> lock(mu);
      if (!failure) failure = std::current_exception();
      stop = true;
    }
    std::lock_guard<std::mutex> lock(mu);
    cv.notify_all();
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  {
    std::unique_lock<std::mutex> lock(mu);
    while (done.load() < total && !stop.load()) {
      cv.wait_for(lock, std::chrono::milliseconds(100));
      if (opts.progress) {
        lock.unlock();
        opts.progress(done.load(), total);
        lock.lock();
      }
    }
  }
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  if (opts.progress) opts.progress(total, total);
}

}  // namespace

void run_games(std::shared_ptr<const compile::Program> program, const RunOptions& opts, const PlayFn& play,
               const Sink& sink) {
  auto make_play = [&]() -> PlayIndex {
    auto game =
        opts.engine ? std::make_shared<runtime::Game>(program, *opts.engine) : std::make_shared<runtime::Game>(program);
    return [game, &play, seed = opts.seed](int64_t index) {
      runtime::Rng rng(game_seed(seed, index));
      return play(*game, index, rng);
    };
  };
  run_impl(opts, make_play, sink);
}

GamePlayer::GamePlayer(std::shared_ptr<const compile::Program> program, uint64_t seed, bool check_invariants,
                       SeatsFor seats_for)
    : game_(std::move(program)), seed_(seed), check_(check_invariants), seats_for_(std::move(seats_for)) {}

GameRecord GamePlayer::play(int64_t index) {
  std::vector<std::string> specs = seats_for_(index);
  seats_.assign(specs.size(), nullptr);
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i] == "random") continue;  // inline: the same choice, no virtual call
    auto& a = agents_[specs[i]];
    if (!a) {
      std::string error;
      a = agents::make_agent(specs[i], error);
      if (!a) throw std::runtime_error(error);
    }
    seats_[i] = a.get();
  }
  runtime::Rng rng(game_seed(seed_, index));
  GameRecord r = playout(game_, rng, seats_, legal_, check_);
  r.index = index;
  return r;
}

void run_agents(std::shared_ptr<const compile::Program> program, const RunOptions& opts, const SeatsFor& seats_for,
                const Sink& sink) {
  auto make_play = [&]() -> PlayIndex {
    auto player = std::make_shared<GamePlayer>(program, opts.seed, opts.check_invariants, seats_for);
    return [player](int64_t index) { return player->play(index); };
  };
  run_impl(opts, make_play, sink);
}

RecordRow to_row(const GameRecord& g, uint64_t run_seed, std::vector<std::string> players,
                 const std::function<std::string(const diag::Error&)>& error_text, bool scored) {
  RecordRow r;
  r.index = g.index;
  r.seed = game_seed(run_seed, g.index);
  r.players = std::move(players);
  r.decisions = g.decisions;
  r.throws = g.throws;
  r.legal = g.legal_sum;
  r.places = g.places;
  r.places.resize(r.players.size(), 0);  // a game stopped before its first state has no places
  r.points = g.points;
  if (scored) r.points.resize(r.players.size(), 0);
  r.end = g.by_limit ? End::Limit : End::Rules;
  if (g.error) {
    r.error = error_text(*g.error);
    if (r.error.empty()) r.error = "error";  // an empty text would read as no error
  }
  return r;
}

void InOrder::add(RecordRow row) {
  int64_t position = (row.index - run_.shard) / run_.shards;
  waiting_.emplace(position, std::move(row));
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == next_; it = waiting_.erase(it), ++next_)
    emit_(it->second);
}

}  // namespace keli::sim
