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

// make_play is called once on each worker thread; the PlayFn it returns is that thread's alone,
// so it may own per-thread state such as agents.
void run_impl(std::shared_ptr<const compile::Program> program, const RunOptions& opts,
              const std::function<PlayFn()>& make_play, const Sink& sink) {
  const int64_t total = std::max<int64_t>(0, opts.games);
  std::mutex sink_mu;
  const int threads = static_cast<int>(std::clamp<int64_t>(opts.threads, 1, std::max<int64_t>(1, total)));
  std::atomic<int64_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable cv;
  std::exception_ptr failure;
  auto worker = [&] {
    try {
      runtime::Game game = opts.engine ? runtime::Game(program, *opts.engine) : runtime::Game(program);
      PlayFn play = make_play();
      for (int64_t i; !stop.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < total;) {
        runtime::Rng rng(game_seed(opts.seed, i));
        GameRecord r = play(game, i, rng);
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
  run_impl(
      std::move(program), opts, [&play] { return play; }, sink);
}

void run_agents(std::shared_ptr<const compile::Program> program, const RunOptions& opts,
                const std::function<std::vector<std::string>(int64_t index)>& seats_for, const Sink& sink) {
  const bool check = opts.check_invariants;
  auto make_play = [&seats_for, check]() -> PlayFn {
    // This thread's agents, one per distinct spec, shared by the games it plays.
    auto agents = std::make_shared<std::map<std::string, std::unique_ptr<agents::Agent>>>();
    auto legal = std::make_shared<std::vector<runtime::Move>>();
    auto seats = std::make_shared<std::vector<agents::Agent*>>();
    return [agents, legal, seats, &seats_for, check](runtime::Game& game, int64_t index, runtime::Rng& rng) {
      std::vector<std::string> specs = seats_for(index);
      seats->assign(specs.size(), nullptr);
      for (size_t i = 0; i < specs.size(); ++i) {
        if (specs[i] == "random") continue;  // inline: the same choice, no virtual call
        auto& a = (*agents)[specs[i]];
        if (!a) {
          std::string error;
          a = agents::make_agent(specs[i], error);
          if (!a) throw std::runtime_error(error);
        }
        (*seats)[i] = a.get();
      }
      return playout(game, rng, *seats, *legal, check);
    };
  };
  run_impl(std::move(program), opts, make_play, sink);
}

}  // namespace keli::sim
