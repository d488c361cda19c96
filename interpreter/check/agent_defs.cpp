// Definitions the computer players find by name: `def evaluate(p: player): int` scores a state
// for seat p, and `def team(p: player): int` tells partners apart. A wrong `evaluate` is an error
// (a typo would otherwise leave the agents silently without it). The `ai { }` block holds what
// only the players read: the rules may not call it, and it may not change the position.
#include <fmt/format.h>

#include "check/checker_impl.hpp"
#include "lang/search_settings.hpp"

namespace keli::check {

void Checker::check_agent_defs() {
  // `def search_KEY(): int`: a search setting the computer players read (docs/agents.md).
  for (auto& s : c_.syms)
    if (s.kind == SymKind::Def && s.decl && s.decl->name.rfind(lang::kSearchSettingPrefix, 0) == 0 &&
        s.decl->formals.empty() && s.type == ast::Type::Int)
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

namespace {

std::vector<std::string> setting_keys() {
  std::vector<std::string> keys;
  for (const auto& s : lang::kSearchSettings) keys.emplace_back(s.key);
  return keys;
}

}  // namespace

void Checker::check_ai_block() {
  for (auto* d : c_.defs) {
    if (d->ai_setting.empty()) continue;
    if (!lang::is_search_setting(d->ai_setting)) {
      std::string hint = diag::suggest(d->ai_setting, setting_keys());
      diags_.report(
          Code::unknown_name, d->name_span, fmt::format("'{}' is not a setting of the computer players", d->ai_setting),
          hint_or(hint, fmt::format("the settings are {} (docs/agents.md)", fmt::join(setting_keys(), ", "))));
    } else if (d->value && !is_constant(*d->value)) {
      diags_.report(
          Code::not_constant, d->value->span,
          fmt::format("the setting '{}' must be known before play: numbers and parameters only", d->ai_setting),
          "a setting is read once, when a player is made; the position is not known then");
    }
  }
  for (auto& [from, to, span] : calls_) {
    if (!to->for_ai || from->for_ai) continue;
    diags_.report(
        Code::misplaced, span,
        fmt::format("'{}' is defined in the 'ai' block, for the computer players: the rules cannot use it", to->name),
        fmt::format("define it outside the 'ai' block if the rules need it (it is at {})", src_.where(to->name_span)));
  }
  // What each body changes, directly or through the functions it calls: a fixed point over the
  // calls (each round adds at least one body, so it ends).
  std::map<ast::Decl*, std::pair<Span, std::string>> reach = changes_;
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < calls_.size(); ++i) {
      const auto& [from, to, span] = calls_[i];
      if (supposed_calls_[i] || reach.count(from) || !reach.count(to)) continue;
      reach[from] = {span, fmt::format("'{}', which changes the position", to->name)};
      grew = true;
    }
  }
  for (auto* d : c_.defs) {
    auto it = reach.find(d);
    if (!d->for_ai || it == reach.end()) continue;
    diags_.report(Code::not_assignable, it->second.first,
                  fmt::format("'{}' is in the 'ai' block, which reads the position and cannot change it: this is {}",
                              d->name, it->second.second),
                  "the computer players score positions; the rules that change them go outside the 'ai' block");
  }
}

}  // namespace keli::check
