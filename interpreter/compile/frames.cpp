// The deepest nesting of frames (calls of definitions and handlers run by events) any step of a
// program can reach, known before play (Program::max_frames). Definitions cannot call themselves
// (the checker refuses recursion), but a handler may raise an event whose handlers lead back to
// it; then the depth has no bound but the engines' check (kMaxCallDepth), and this says -1.
// Where the bound is within the check, the native engine leaves the depth uncounted: the check
// could never fail.
#include "compile/frames.hpp"

#include <algorithm>

namespace keli::compile {
namespace {

class Frames {
 public:
  explicit Frames(const Program& p) : p_(p), depth_(p.callables.size(), kUnknown) {}

  int deepest() {
    int most = 0;
    for (size_t c = 0; c < p_.callables.size(); ++c) {
      const int d = frames(static_cast<int>(c));
      if (d < 0) return -1;
      most = std::max(most, d);
    }
    return most;
  }

 private:
  static constexpr int kUnknown = -2, kOpen = -3;

  // The frames a call of c opens, itself included; -1 when a chain leads back to c.
  int frames(int c) {
    if (depth_[c] == kOpen) return -1;
    if (depth_[c] != kUnknown) return depth_[c];
    depth_[c] = kOpen;
    int below = 0;
    bool endless = false;
    walk(p_.callables[c].body, [&](int callee) {
      const int d = frames(callee);
      endless = endless || d < 0;
      below = std::max(below, d);
    });
    depth_[c] = endless ? -1 : 1 + below;
    return depth_[c];
  }

  // Calls every callable a node tree (statements and expressions) runs in a frame of its own:
  // definitions called, handlers of the events it raises (their guards run in the raiser's
  // frame), a declared fact's conditions and keys where it writes what the fact counts, and
  // end_game's ranking and points.
  template <class F>
  void walk(int idx, const F& callee) const {
    for (; idx >= 0; idx = p_.code[idx].next) {
      const Node& n = p_.code[idx];
      for (int k : n.k) walk(k, callee);
      if (n.op == Op::StateSet || n.op == Op::ConstSet) walk(n.d, callee);
      if (n.op == Op::Call || n.op == Op::CallStmt || n.op == Op::Emit || n.op == Op::Finish)
        for (int i = 0; i < n.c; ++i) walk(p_.args[n.b + i], callee);
      if (n.op == Op::Call || n.op == Op::CallStmt) callee(n.a);
      if (n.op == Op::EndGame && static_cast<lang::EndBy>(n.aux) == lang::EndBy::Callable) callee(n.a);
      if (n.op == Op::EndGame && static_cast<lang::EndBy>(n.c) == lang::EndBy::Callable) callee(n.b);
      if (n.op == Op::Emit)
        for (const Handler& h : p_.handlers[n.a]) {
          walk(h.guard, callee);
          callee(h.callable);
        }
      if (n.op == Op::StateSet && static_cast<size_t>(n.a) < p_.tallies_of_var.size())
        for (int id : p_.tallies_of_var[n.a]) {
          for (const TallyStep& st : p_.facts[id].steps) callee(st.callable);
          if (p_.facts[id].weight >= 0) callee(p_.facts[id].weight);
        }
    }
  }

  const Program& p_;
  std::vector<int> depth_;
};

}  // namespace

int deepest_frames(const Program& p) { return Frames(p).deepest(); }

}  // namespace keli::compile
