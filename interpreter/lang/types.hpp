// The types of the language and the kinds of value a state slot, table index or move parameter
// holds. The checker types expressions with Type; the compiled program keeps ValueKind and
// DimKind so that traces, notation and pictures know what a number stands for.
#pragma once

#include <cstdint>

namespace keli::lang {

// What a name or expression denotes once checked.
// None is the literal `none`; SiteOrNone.. are `site or none`..: a value that may be absent, stored
// as -1, usable as its T only where the checker has seen it tested (docs/language.md, "none").
enum class Type : uint8_t {
  Error,
  Void,
  Int,
  Bool,
  Site,
  Player,
  Piece,
  Enum,
  Region,
  Phase,
  Dice,
  Str,
  Domain,
  None,
  SiteOrNone,
  PlayerOrNone,
  PieceOrNone,
  Direction,  // a direction of the board (`directions`): a number 0..D-1, named
  List,       // a local collection (lang/collections.hpp): named only, never a value
  Set
};
const char* type_name(Type t);  // "an int", "a site", ... for messages
inline bool is_number(Type t) {
  return t == Type::Int || t == Type::Site || t == Type::Player || t == Type::Piece || t == Type::Direction;
}
// `T or none` types and their T.
inline bool is_collection(Type t) { return t == Type::List || t == Type::Set; }
inline bool is_or_none(Type t) { return t == Type::SiteOrNone || t == Type::PlayerOrNone || t == Type::PieceOrNone; }
inline Type without_none(Type t) {
  return t == Type::SiteOrNone     ? Type::Site
         : t == Type::PlayerOrNone ? Type::Player
         : t == Type::PieceOrNone  ? Type::Piece
                                   : t;
}
inline Type with_none(Type t) {
  return t == Type::Site     ? Type::SiteOrNone
         : t == Type::Player ? Type::PlayerOrNone
         : t == Type::Piece  ? Type::PieceOrNone
                             : t;
}
// The stored value of `none` in the state and in both engines.
inline constexpr int kNoneValue = -1;

// What a stored number means: a table element, or a move parameter's value.
enum class ValueKind : uint8_t { Int, Bool, Site, Player, Piece, Direction };
// The kind of a value of type t (a site, seat, piece or truth value; any other as a number).
inline ValueKind value_kind(Type t) {
  return t == Type::Site        ? ValueKind::Site
         : t == Type::Player    ? ValueKind::Player
         : t == Type::Piece     ? ValueKind::Piece
         : t == Type::Bool      ? ValueKind::Bool
         : t == Type::Direction ? ValueKind::Direction
                                : ValueKind::Int;
}

// How a table dimension is indexed: a range of numbers, or by site, player or piece.
enum class DimKind : uint8_t { Range, Site, Player, Piece };

}  // namespace keli::lang
