// What a move can do, read off its compiled body (through the definitions it calls and the
// handlers of the events it raises): W007 for a move that changes nothing, W008 for one after
// which the same player always moves again. Exact, never a guess: a move warned about has no
// statement on any path that writes the state (W007) or that sets the mover, the phase or the
// end of the game (W008).
#include <fmt/format.h>

#include "compile/compiler_impl.hpp"

namespace keli::compile {

namespace {

struct Effects {
  bool writes = false;  // some variable, the mover or the phase, or the game's end
  bool turns = false;   // the mover, the phase, the end of the game, or `fail`
  bool fails = false;   // `fail`: what a `suppose` block does that stays done
  void add(Effects e) {
    writes = writes || e.writes;
    turns = turns || e.turns;
    fails = fails || e.fails;
  }
};

class EffectReader {
 public:
  explicit EffectReader(const Program& p) : p_(p), done_(p.callables.size()), of_(p.callables.size()) {}

  // The effects of statement chain (or expression) idx.
  Effects of(int idx) {
    Effects e;
    for (; idx >= 0; idx = p_.code[idx].next) {
      const Node& n = p_.code[idx];
      switch (n.op) {
        case Op::StateSet: e.writes = true; break;
        case Op::SetMover:
        case Op::SetPhase:
        case Op::Finish:
        case Op::EndGame: e.writes = e.turns = true; break;
        case Op::Fail: e.turns = e.fails = true; break;
        case Op::Suppose: {  // its writes are given back: only an error in it stays
          const bool fails = of(n.k[1]).fails;
          e.turns = e.turns || fails;
          e.fails = e.fails || fails;
          continue;
        }
        case Op::Call:
        case Op::CallStmt:
          e.add(callable(n.a));
          for (int i = 0; i < n.c; ++i) e.add(of(p_.args[n.b + i]));
          break;
        case Op::Emit:
          for (const Handler& h : p_.handlers[n.a]) e.add(callable(h.callable));
          for (int i = 0; i < n.c; ++i) e.add(of(p_.args[n.b + i]));
          break;
        default: break;
      }
      for (int i = 0; i < kNodeKids; ++i) e.add(of(n.k[i]));
    }
    return e;
  }

 private:
  // A callable's effects, once; a recursive call adds nothing new on its way round.
  Effects callable(int c) {
    if (c < 0 || c >= static_cast<int>(done_.size())) return {};
    if (done_[c]) return of_[c];
    done_[c] = true;
    of_[c] = of(p_.callables[c].body);
    return of_[c];
  }

  const Program& p_;
  std::vector<bool> done_;
  std::vector<Effects> of_;
};

}  // namespace

void Compiler::warn_effects(const Program& out) {
  EffectReader read(out);
  size_t r = 0;
  for (const ast::Decl* ph : ck.phases)
    for (const ast::Move& m : ph->moves) {
      const Rule& rule = out.rules.at(r++);
      if (m.span.file != ck.modules[ck.main].file) continue;  // a library's or a base's rule
      Effects e = read.of(rule.body);
      if (!e.writes && !e.turns)
        diags.report(diag::Code::changes_nothing, m.span,
                     fmt::format("move '{}' changes nothing: no variable, mover or phase is set on any path", m.name),
                     "a move must change the game: say what it does, or remove it");
      else if (!e.turns && out.num_players > 1)  // alone, a player always moves again
        diags.report(diag::Code::same_player_again, m.span,
                     fmt::format("after move '{}' the same player always moves again: nothing in it sets the mover, "
                                 "the phase or the end of the game",
                                 m.name),
                     "pass the turn ('mover = next_seat(mover)') unless the player is meant to move on");
    }
}

}  // namespace keli::compile
