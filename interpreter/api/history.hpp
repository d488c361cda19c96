// A state's history: the action ids applied since the start (decisions and chance outcomes),
// oldest first, as pyspiel's State.history(). Copies share it: an entry is added per step and
// never changed, so a clone of a long game costs one pointer, and long chains are let go of one
// entry at a time (never by a recursion as deep as the game).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace keli::api {

class History {
 public:
  History() = default;
  History(const History& o) = default;
  History(History&& o) noexcept : last_(std::move(o.last_)), size_(o.size_) { o.size_ = 0; }
  History& operator=(const History& o);
  History& operator=(History&& o) noexcept;
  ~History();

  void push(int64_t action);
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::vector<int64_t> list() const;  // oldest first
  // The memory one step's entry takes (the step protocol counts it with the step's undo record).
  static constexpr int64_t kEntryBytes = 64;

 private:
  struct Entry {
    int64_t action;
    std::shared_ptr<const Entry> before;
  };
  static void release(std::shared_ptr<const Entry> p) noexcept;
  std::shared_ptr<const Entry> last_;
  size_t size_ = 0;
};

}  // namespace keli::api
