// The names that tie the turn-order statements (`end turn`, `pass turn`, `extra turn`) and the
// `turn order` declaration to the library file that keeps the turn (stdlib/turn_order.keli).
#pragma once

namespace keli::ast::turn_order {

// The library files the loader adds to a game that passes the turn with these statements; the
// defaults file only when no file of the game declares `turn order`.
inline constexpr const char* kLibraryFile = "turn_order.keli";
inline constexpr const char* kDefaultsFile = "turn_order_defaults.keli";
inline constexpr const char* kExtraTurnsFile = "turn_order_extra.keli";  // `turns_due`, for `extra turn`

// What the library declares and the statements read or write.
inline constexpr const char* kTurnsDue = "turns_due";  // var: extra turns due to the mover
inline constexpr const char* kNextTurn = "next_turn";  // def (p: player): player, the next seat to play
inline constexpr const char* kMover = "mover";

// What `turn order` declares (and the defaults file, when it is absent).
inline constexpr const char* kSkips = "skips_turn";          // def (p: player): bool
inline constexpr const char* kBackwards = "turn_backwards";  // def (): bool

}  // namespace keli::ast::turn_order
