// The wording of runtime errors, shared by both engines (runtime/messages.hpp).
#include "runtime/messages.hpp"

#include <fmt/format.h>

#include "lang/limits.hpp"

namespace keli::runtime::msg {

std::string bad_index(const std::string& table, int64_t i, int64_t low, int64_t size) {
  return fmt::format("index {} is outside '{}' (valid: {}..{})", i, table, low, low + size - 1);
}
std::string no_region(int64_t id) { return fmt::format("no region or track number {}", id); }
std::string position_outside(int64_t i, size_t size) {
  return fmt::format("position {} is outside a region or track of {} sites", i, size);
}
std::string not_on_track(int64_t site) { return fmt::format("site {} is not on this track", site); }
std::string no_roll(int64_t i, int thrown) {
  return fmt::format("roll[{}] does not exist: {} dice were thrown", i, thrown);
}
std::string too_large(int64_t v) { return fmt::format("value {} is too large to store", v); }
std::string no_seat(int64_t seat) { return fmt::format("seat {} does not exist", seat); }
std::string empty_aggregate(bool min) { return fmt::format("{} over nothing", min ? "min" : "max"); }
std::string range_too_long(int64_t lo, int64_t hi) {
  return fmt::format("the range {}..{} is longer than {}", lo, hi, lang::kMaxLoopIterations);
}
std::string too_many_tries(const std::string& move) {
  return fmt::format("listing the moves of '{}' tried more than {} values of its parameters (kMaxMoveTries)", move,
                     lang::kMaxMoveTries);
}
std::string too_many_keys(const std::string& move) {
  return fmt::format(
      "a 'distinct by' parameter of '{}' met more than {} different keys in one listing of the moves "
      "(kMaxDistinctKeys)",
      move, lang::kMaxDistinctKeys);
}
std::string collection_fault(lang::CollFault f, const compile::Node& n, int64_t value, int64_t size) {
  const char* what = static_cast<lang::CollKind>(n.aux) == lang::CollKind::Set ? "set" : "list";
  switch (f) {
    case lang::CollFault::Full:
      return fmt::format("the list is full: it holds at most {} values, as many as its type has", n.c);
    case lang::CollFault::Empty: return fmt::format("the {} is empty", what);
    case lang::CollFault::NotElement:
      return fmt::format("{} cannot be in this {}: it holds values {}..{}", value, what, n.b, int64_t{n.b} + n.c - 1);
    case lang::CollFault::Position:
      return fmt::format("position {} is outside this {} of {} values", value, what, size);
    case lang::CollFault::None: break;
  }
  return "no fault";
}
std::string points_outside(int64_t points, int32_t limit) {
  return fmt::format("a seat's points, {}, are outside -{}..{} ('limit points {}')", points, limit, limit, limit);
}

std::string history_full(int capacity) {
  return fmt::format(
      "the game's position history overflowed: it remembers {} positions (limit history), and this game has had more, "
      "so 'repetitions' cannot be counted",
      capacity);
}
std::string loop_too_long() { return fmt::format("this loop ran {} times without ending", lang::kMaxLoopIterations); }
std::string out_of_work(compile::Op op, int64_t budget) {
  using compile::Op;
  const char* what = "this step";
  switch (op) {
    case Op::While:
    case Op::For: what = "this loop"; break;
    case Op::AggSum:
    case Op::AggCount:
    case Op::AggAny:
    case Op::AggAll:
    case Op::AggMin:
    case Op::AggMax: what = "this aggregate"; break;
    case Op::Call:
    case Op::CallStmt: what = "this call"; break;
    case Op::Emit: what = "this event's handlers"; break;
    case Op::CollHas:
    case Op::CollCall:
    case Op::CollRemove: what = "this search of a list or set"; break;
    case Op::DomSearch: what = "this search of the board"; break;
    case Op::DomRange:
    case Op::DomRegion:
    case Op::DomIndex:
    case Op::DomCount: what = "listing this move parameter's values"; break;
    default: break;
  }
  return fmt::format(
      "{} ran out of the step's work budget: a step may do {} units of work (loop rounds, domain elements, calls)",
      what, budget);
}
std::string no_legal_move(const std::string& phase) {
  return fmt::format("no move is legal in phase '{}' and it has no 'otherwise' rule", phase);
}

}  // namespace keli::runtime::msg
