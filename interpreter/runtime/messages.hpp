// The wording of every runtime error both engines report: the interpreter (runtime/machine.cpp)
// and the native engine's host side (runtime/native_game.cpp) call these, so one fault reads the
// same under either engine.
#pragma once

#include <cstdint>
#include <string>

#include "compile/program.hpp"
#include "lang/collections.hpp"

namespace keli::runtime::msg {

// `i` is the index as written; valid indices are low .. low + size - 1.
std::string bad_index(const std::string& table, int64_t i, int64_t low, int64_t size);
std::string no_region(int64_t id);
std::string position_outside(int64_t i, size_t size);
std::string not_on_track(int64_t site);
std::string no_roll(int64_t i, int thrown);
std::string too_large(int64_t v);
std::string no_seat(int64_t seat);
std::string empty_aggregate(bool min);
std::string range_too_long(int64_t lo, int64_t hi);
std::string loop_too_long();
std::string too_many_tries(const std::string& move);
std::string too_many_keys(const std::string& move);
std::string history_full(int capacity);
std::string points_outside(int64_t points, int32_t limit);
// A local collection's fault (lang/collections.hpp) at a node naming it (aux kind, b low, c
// capacity): `value` is the value or position it was given, `size` how many it held.
std::string collection_fault(lang::CollFault f, const compile::Node& n, int64_t value, int64_t size);
inline constexpr const char* kHistoryFullHint =
    "declare a larger 'limit history N' (it costs two state slots a position), or end the game sooner";
std::string no_legal_move(const std::string& phase);
// The step's work budget ran out at a node of kind `op`: a loop, an aggregate, a call, an event's
// handlers or a move parameter's values.
std::string out_of_work(compile::Op op, int64_t budget);
inline constexpr const char* kOutOfWorkHint =
    "if the rules are right, raise the budget with 'limit work N' in the game or --budget N";
inline constexpr const char* kNoLegalMoveHint =
    "add 'otherwise NAME { ... }' to say what happens when nothing can be done";
inline constexpr const char* kCallsTooDeep = "calls nested too deeply";
inline constexpr const char* kEventsTooDeep = "events nested too deeply";
inline constexpr const char* kConstOnlyBuilding = "constants can only be set while building the board";
inline constexpr const char* kAddOnlyBuilding = "'add' can only be used while building the board";
inline constexpr const char* kSiteOnlyBuilding = "sites can only be made while building the board";

}  // namespace keli::runtime::msg
