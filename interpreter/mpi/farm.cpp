// The MPI side of keli simulate --mpi (see farm.hpp): rank 0's dispenser of chunks and the other
// ranks' request loop. Messages: a rank's request carries its hello or the lines of the chunk it
// finished; rank 0 answers with the next chunk (first, count), count 0 meaning "no more"; a rank
// whose work failed sends the reason instead of a request.
#include "mpi/farm.hpp"

#include <stdexcept>

#ifdef KELI_HAVE_MPI
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "lang/limits.hpp"
#endif

namespace keli::mpi {

#ifndef KELI_HAVE_MPI

bool built_with_mpi() { return false; }
World::World() { throw std::runtime_error("this keli was built without MPI (see docs/simulation.md)"); }
World::~World() = default;
std::vector<Failure> lead(const World&, int64_t, const std::string&, const Work&,
                          const std::function<void(const std::string&)>&) {
  return {};
}
void follow(const World&, const std::string&, const Work&, const std::function<std::string(int64_t, int64_t)>&,
            const std::string&) {}

#else

bool built_with_mpi() { return true; }

namespace {

enum Tag : int { kRequest = 1, kChunk = 2, kFailed = 3 };

void send_text(const std::string& text, int to, Tag tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::string receive_text(const MPI_Status& probed) {
  int n = 0;
  MPI_Get_count(&probed, MPI_CHAR, &n);
  std::string text(static_cast<size_t>(n), '\0');
  MPI_Recv(text.data(), n, MPI_CHAR, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

void send_chunk(int to, int64_t first, int64_t count) {
  int64_t chunk[2] = {first, count};
  MPI_Send(chunk, 2, MPI_INT64_T, to, kChunk, MPI_COMM_WORLD);
}

// What a crashing rank says on its way down: written by the signal handler with write(2), so it
// is prepared (formatted) before the chunk is played, never in the handler.
char g_held[1024];
size_t g_held_len = 0;

extern "C" void on_crash(int sig) {
  if (g_held_len) {
    ssize_t ignored = write(STDERR_FILENO, g_held, g_held_len);
    (void)ignored;
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void set_held(const std::string& text) {
  g_held_len = std::min(text.size(), sizeof g_held);
  std::memcpy(g_held, text.data(), g_held_len);
}

// Rank 0's state: the next position, the chunk each rank holds, the lines of its own thread.
class Leader {
 public:
  Leader(const World& w, int64_t total, const Work& work) : total_(total), work_(work), ranks_(w.size()) {}
  std::vector<Failure> run(const std::string& hello, const std::function<void(const std::string&)>& gather);

 private:
  struct Rank {
    bool greeted = false, done = false;
    int64_t first = 0, count = 0;
  };
  // The next chunk (count 0: none left, or the run stopped), taken under the lock.
  std::pair<int64_t, int64_t> take() {
    std::lock_guard<std::mutex> lock(mu_);
    if (!failures_.empty() || next_ >= total_) return {next_, 0};
    int64_t left = total_ - next_;
    int64_t n = std::clamp<int64_t>(left / (4 * static_cast<int64_t>(ranks_.size())), 1, lang::kMaxMpiChunk);
    std::pair<int64_t, int64_t> chunk{next_, n};
    next_ += n;
    return chunk;
  }
  void fail(int rank, const std::string& message, int64_t first, int64_t count) {
    std::lock_guard<std::mutex> lock(mu_);
    failures_.push_back({rank, message, first, count});
  }
  void play_here();  // rank 0's own thread
  void handle(const MPI_Status& st, const std::string& hello, const std::function<void(const std::string&)>& gather);

  int64_t total_, next_ = 0;
  const Work& work_;
  std::vector<Rank> ranks_;
  std::mutex mu_;
  std::deque<std::string> lines_;  // from rank 0's thread, waiting for gather
  std::vector<Failure> failures_;
  bool here_done_ = false;
};

void Leader::play_here() {
  std::pair<int64_t, int64_t> chunk{0, 0};
  try {
    while ((chunk = take()).second > 0)
      for (int64_t p = chunk.first; p < chunk.first + chunk.second; ++p) {
        std::string line = work_(p);
        std::lock_guard<std::mutex> lock(mu_);
        lines_.push_back(std::move(line));
      }
  } catch (const std::exception& e) {
    fail(0, e.what(), chunk.first, chunk.second);
  }
  std::lock_guard<std::mutex> lock(mu_);
  here_done_ = true;
}

void Leader::handle(const MPI_Status& st, const std::string& hello,
                    const std::function<void(const std::string&)>& gather) {
  Rank& r = ranks_[static_cast<size_t>(st.MPI_SOURCE)];
  std::string text = receive_text(st);
  if (st.MPI_TAG == kFailed) {
    fail(st.MPI_SOURCE, text, r.first, r.count);
    r.done = true;
    return;
  }
  if (!r.greeted) {
    r.greeted = true;
    if (!hello.empty() && text != hello)
      fail(st.MPI_SOURCE, "it was started on another run (game file, parameters or options): " + text, 0, 0);
  } else {
    for (size_t start = 0, end; start < text.size(); start = end + 1) {
      end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      gather(text.substr(start, end - start));
    }
  }
  auto [first, count] = take();
  r.first = first;
  r.count = count;
  r.done = count == 0;
  send_chunk(st.MPI_SOURCE, first, count);
}

std::vector<Failure> Leader::run(const std::string& hello, const std::function<void(const std::string&)>& take_line) {
  // A line that cannot be taken stops the run as its rank's failure; the loop goes on until
  // every rank has been sent home, so that no rank is left waiting.
  int from = 0;
  auto gather = [&](const std::string& line) {
    try {
      take_line(line);
    } catch (const std::exception& e) {
      fail(from, std::string("its record was refused: ") + e.what(), 0, 0);
    }
  };
  std::thread here;
  if (work_)
    here = std::thread([this] { play_here(); });
  else
    here_done_ = true;
  ranks_[0].done = true;
  auto all_done = [&] {
    std::lock_guard<std::mutex> lock(mu_);
    return here_done_ && lines_.empty() &&
           std::all_of(ranks_.begin(), ranks_.end(), [](const Rank& r) { return r.done; });
  };
  while (!all_done()) {
    for (;;) {  // rank 0's own lines first
      std::string line;
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (lines_.empty()) break;
        line = std::move(lines_.front());
        lines_.pop_front();
      }
      from = 0;
      gather(line);
    }
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    from = flag ? st.MPI_SOURCE : 0;
    if (flag)
      handle(st, hello, gather);
    else
      std::this_thread::sleep_for(std::chrono::microseconds(200));  // not a busy wait: rank 0 plays too
  }
  if (here.joinable()) here.join();
  return failures_;
}

}  // namespace

World::World() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

World::~World() { MPI_Finalize(); }

std::vector<Failure> lead(const World& world, int64_t total, const std::string& hello, const Work& work,
                          const std::function<void(const std::string&)>& gather) {
  Leader leader(world, work ? total : 0, work);
  return leader.run(hello, gather);
}

void follow(const World&, const std::string& hello, const Work& work,
            const std::function<std::string(int64_t, int64_t)>& held, const std::string& why) {
  if (!work) return send_text(why, 0, kFailed);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, on_crash);
  send_text(hello, 0, kRequest);
  for (;;) {
    int64_t chunk[2] = {0, 0};
    MPI_Recv(chunk, 2, MPI_INT64_T, 0, kChunk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (chunk[1] == 0) return;
    set_held(held(chunk[0], chunk[1]));
    std::string lines;
    try {
      for (int64_t p = chunk[0]; p < chunk[0] + chunk[1]; ++p) lines += work(p) + "\n";
    } catch (const std::exception& e) {
      return send_text(e.what(), 0, kFailed);
    }
    g_held_len = 0;
    send_text(lines, 0, kRequest);
  }
}

#endif

}  // namespace keli::mpi
