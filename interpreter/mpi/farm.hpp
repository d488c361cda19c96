// Work spread over the ranks of an MPI job (mpirun), with dynamic load balancing: rank 0 hands
// out positions of a run in small chunks to any rank that asks, itself included, and gathers the
// text each position's work returns. The only file of Keli that includes MPI's header is farm.cpp;
// this interface is plain C++, and a build without MPI (built_with_mpi() false) says so.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace keli::mpi {

bool built_with_mpi();

// This process's place in the job: joining (MPI_Init) on construction, leaving (MPI_Finalize)
// on destruction. Throws std::runtime_error when there is no MPI.
class World {
 public:
  World();
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

// Plays position `position` of the run and returns its one line of text (no line break).
using Work = std::function<std::string(int64_t position)>;

// A rank that did not finish its share: why, and the positions it held (count 0: none).
struct Failure {
  int rank = 0;
  std::string message;
  int64_t first = 0, count = 0;
};

// Rank 0: hands out positions 0 .. total-1 in chunks (of at most lang::kMaxMpiChunk, fewer near
// the end) to every rank that asks, and plays chunks itself on a thread of its own with `work`.
// Every line comes to `gather` on the calling thread, in no fixed order. Each other rank first
// sends `hello` (what its run is); one whose hello differs is given nothing and is a failure.
// After the first failure no chunk is handed out; the failures are returned (empty: every
// position's line was gathered). With a null `work` (rank 0 could not load its game) every rank
// is sent home at once.
std::vector<Failure> lead(const World& world, int64_t total, const std::string& hello, const Work& work,
                          const std::function<void(const std::string& line)>& gather);

// Every other rank: sends `hello`, then plays the chunks rank 0 hands out until it has no more.
// An exception from `work` is reported to rank 0 (and rethrown no further); a crash while
// playing writes `held(first, count)` to stderr first. A null `work` (this rank could not load
// its game) reports `why` as its failure and plays nothing.
void follow(const World& world, const std::string& hello, const Work& work,
            const std::function<std::string(int64_t first, int64_t count)>& held, const std::string& why = "");

}  // namespace keli::mpi
