// The types of the language and the kinds of value a state slot, table index or move parameter
// holds. The checker types expressions with Type; the compiled program keeps ValueKind and
// DimKind so that traces, notation and pictures know what a number stands for.
#pragma once

#include <cstdint>

namespace keli::lang {

// What a name or expression denotes once checked.
enum class Type : uint8_t { Error, Void, Int, Bool, Site, Player, Piece, Enum, Region, Phase, Dice, Str, Domain };
const char* type_name(Type t);  // "an int", "a site", ... for messages
inline bool is_number(Type t) { return t == Type::Int || t == Type::Site || t == Type::Player || t == Type::Piece; }

// What a stored number means: a table element, or a move parameter's value.
enum class ValueKind : uint8_t { Int, Bool, Site, Player, Piece };

// How a table dimension is indexed: a range of numbers, or by site, player or piece.
enum class DimKind : uint8_t { Range, Site, Player, Piece };

}  // namespace keli::lang
