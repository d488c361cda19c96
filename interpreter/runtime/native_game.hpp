// The host side of the native engine: one game's loaded module with its own context (locals,
// depth, buffers), so that a Game can run on it. Faults become the interpreter's diag::Error,
// worded by runtime/messages.hpp at the node's source position.
#pragma once

#include <memory>
#include <vector>

#include "compile/program.hpp"
#include "native/abi.h"
#include "native/backend.hpp"

namespace keli::runtime {

struct Move;

class NativeGame {
 public:
  NativeGame(const compile::Program& p, std::shared_ptr<const native::Module> m);
  NativeGame(const NativeGame&) = delete;
  NativeGame& operator=(const NativeGame&) = delete;

  int64_t call(int32_t* state, int callable, const int64_t* args, int nargs);
  void legal(int32_t* state, std::vector<Move>& out);  // the rules' moves, no `otherwise`
  void apply(int32_t* state, const Move& m);
  void apply_roll(int32_t* state, const int32_t* roll, int n);
  const std::vector<int>& notes() const { return notes_; }
  const std::shared_ptr<const native::Module>& module() const { return module_; }
  void clear_notes() { notes_.clear(); }
  // The positions before the state of the next entries, which `repetitions` compares with.
  void see_past(const lang::PastView* past) { ctx_.past = past; }
  // Units of work each entry (a call, a listing, a move, a throw) may do; passed to the generated
  // code at run time, so a new budget needs no recompiling.
  void set_budget(int64_t units) { budget_ = units; }
  int64_t budget() const { return budget_; }

 private:
  [[noreturn]] void fail() const;
  void begin();
  void end_notes();
  static void grow(keli_ctx* ctx, keli_buffer* b);

  const compile::Program& p_;
  std::shared_ptr<const native::Module> module_;
  const keli_module& t_;
  std::vector<int64_t> locals_;
  std::vector<int> notes_;
  std::vector<Move> move_buf_;  // the buffers generated code appends to, grown when full
  std::vector<int32_t> note_buf_;
  std::vector<int32_t> undo_buf_;  // the undo log of guards that write the state (keli_ctx::undo)
  keli_ctx ctx_{};
  int64_t budget_;
};

// The native code of p, or null for the interpreter, as `o` asks (auto: falls back with one line
// on stderr, once per program). Throws std::runtime_error when native is asked for and fails.
std::shared_ptr<NativeGame> make_native(const compile::Program& p, const struct EngineOptions& o);

}  // namespace keli::runtime
