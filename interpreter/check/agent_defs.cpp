// Definitions the computer players find by name: `def evaluate(p: player): int` scores a state
// for seat p, and `def team(p: player): int` tells partners apart. A wrong `evaluate` is an error
// (a typo would otherwise leave the agents silently without it).
#include <fmt/format.h>

#include "check/checker_impl.hpp"

namespace keli::check {

void Checker::check_agent_defs() {
  // `def search_KEY(): int`: a search setting the computer players read (docs/agents.md).
  for (auto& s : c_.syms)
    if (s.kind == SymKind::Def && s.decl && s.decl->name.rfind("search_", 0) == 0 && s.decl->formals.empty() &&
        s.type == ast::Type::Int)
      s.used = true;
  for (const char* name : {"evaluate", "team"}) {
    int i = c_.lookup(name);
    if (i < 0) continue;
    Symbol& s = c_.syms[i];
    bool right = s.kind == SymKind::Def && s.decl->formals.size() == 1 && s.decl->formals[0].type == "player" &&
                 s.type == ast::Type::Int;
    if (right) {
      s.used = true;  // read by the agents, not by the rules
      continue;
    }
    // `team` may be any helper of the rules; only the exact shape is taken as the teams.
    if (std::string(name) != "evaluate" || !s.decl) continue;
    s.used = true;  // one message for a wrong `evaluate`, not also "never used"
    diags_.report(diag::Code::type_mismatch, s.decl->name_span,
                  fmt::format("'evaluate' is read by the computer players and must be 'def evaluate(p: player): int'"),
                  "take one player and return an int, higher being better for that player (docs/agents.md)");
  }
}

}  // namespace keli::check
