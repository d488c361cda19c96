// The language's operators: one table with each operator's spelling, operand count, precedence,
// class and meaning. The parser, checker, code generator, optimizer, describe and the native
// emitter all read it; lang/arith.hpp gives each arithmetic operator its one meaning.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace keli::lang {

// What an operator works on, and so which part of the checker types it.
enum class OpClass : uint8_t {
  Arithmetic,  // numbers -> int
  Equality,    // two values of one type -> bool
  Ordering,    // numbers of one kind -> bool
  Logic,       // bools -> bool; `and` / `or` evaluate their right side only when needed
  Membership,  // a site `in` a region or track -> bool
};

// X(id, spelling, operands, precedence, class, meaning, words); a higher precedence binds tighter.
// `words` is the operation in a rulebook's English (keli rules), {0} and {1} its operands.
// `not` sits between `and` and the comparisons; docs/language.md's levels are these plus one
// (its level 1 is the conditional `if ... then ... else`).
#define KELI_OPERATORS(X)                                                                                             \
  X(Or, "or", 2, 1, Logic, "true when either side is; the right side only when the left is false", "{0} or {1}")      \
  X(And, "and", 2, 2, Logic, "true when both are; the right side only when the left is true", "{0} and {1}")          \
  X(Not, "not", 1, 3, Logic, "the opposite truth value", "not {0}")                                                   \
  X(Eq, "==", 2, 4, Equality, "the two values are equal", "{0} is {1}")                                               \
  X(Ne, "!=", 2, 4, Equality, "the two values differ", "{0} is not {1}")                                              \
  X(Lt, "<", 2, 4, Ordering, "the left number is smaller", "{0} is less than {1}")                                    \
  X(Le, "<=", 2, 4, Ordering, "the left number is smaller or equal", "{0} is at most {1}")                            \
  X(Gt, ">", 2, 4, Ordering, "the left number is larger", "{0} is more than {1}")                                     \
  X(Ge, ">=", 2, 4, Ordering, "the left number is larger or equal", "{0} is at least {1}")                            \
  X(In, "in", 2, 4, Membership, "the site stands in the region or track", "{0} is in {1}")                            \
  X(Add, "+", 2, 5, Arithmetic, "the sum", "{0} plus {1}")                                                            \
  X(Sub, "-", 2, 5, Arithmetic, "the difference", "{0} minus {1}")                                                    \
  X(Mul, "*", 2, 6, Arithmetic, "the product", "{0} times {1}")                                                       \
  X(Div, "/", 2, 6, Arithmetic, "the quotient, truncated toward zero (-7 / 2 is -3)",                                 \
    "{0} divided by {1} (rounded toward zero)")                                                                       \
  X(Mod, "%", 2, 6, Arithmetic, "the remainder, never negative (-7 % 3 is 2)", "the remainder of {0} divided by {1}") \
  X(Neg, "-", 1, 7, Arithmetic, "the number negated", "minus {0}")

enum class Operator : uint8_t {
#define KELI_OPERATOR_ENUM(id, spelling, operands, precedence, cls, meaning, words) id,
  KELI_OPERATORS(KELI_OPERATOR_ENUM)
#undef KELI_OPERATOR_ENUM
};

struct OperatorInfo {
  Operator id;
  const char* spelling;
  int operands;
  int precedence;
  OpClass cls;
  const char* meaning;
  const char* words;
};

inline constexpr OperatorInfo kOperators[] = {
#define KELI_OPERATOR_ROW(id, spelling, operands, precedence, cls, meaning, words) \
  {Operator::id, spelling, operands, precedence, OpClass::cls, meaning, words},
    KELI_OPERATORS(KELI_OPERATOR_ROW)
#undef KELI_OPERATOR_ROW
};
inline constexpr int kOperatorCount = static_cast<int>(sizeof(kOperators) / sizeof(kOperators[0]));

constexpr const OperatorInfo& operator_info(Operator op) { return kOperators[static_cast<int>(op)]; }

// The operator written `spelling` with `operands` operands (`-` is both Sub and Neg); none when
// the spelling is not an operator, which the parser reports as an internal error.
std::optional<Operator> find_operator(std::string_view spelling, int operands);

// Assignments: `=`, `+=`, `-=`. X(id, spelling, words: the statement in a rulebook's English, {0}
// the target and {1} the value)
#define KELI_ASSIGNMENTS(X)        \
  X(Set, "=", "set {0} to {1}")    \
  X(AddTo, "+=", "add {1} to {0}") \
  X(SubtractFrom, "-=", "subtract {1} from {0}")

enum class Assign : uint8_t {
#define KELI_ASSIGN_ENUM(id, spelling, words) id,
  KELI_ASSIGNMENTS(KELI_ASSIGN_ENUM)
#undef KELI_ASSIGN_ENUM
};
const char* assign_spelling(Assign a);
const char* assign_words(Assign a);
std::optional<Assign> find_assign(std::string_view spelling);

// Aggregates over a domain: X(id, word, value over an empty domain or "none", meaning, words: the
// aggregate in a rulebook's English, {each} the domain ("h in the mover's row") and {body} the body)
#define KELI_AGGREGATES(X)                                                                                          \
  X(Sum, "sum", "0", "the sum of the body over the domain", "the total of {body} over {each}")                      \
  X(Count, "count", "0", "how many elements make the body true", "the number of {each} for which {body}")           \
  X(Any, "any", "false", "whether the body is true for some element", "for some {each}, {body}")                    \
  X(All, "all", "true", "whether the body is true for every element", "for every {each}, {body}")                   \
  X(Min, "min", "an error", "the smallest value of the body (an error when empty)", "the least {body} over {each}") \
  X(Max, "max", "an error", "the largest value of the body (an error when empty)", "the greatest {body} over {each}")

enum class Aggregate : uint8_t {
#define KELI_AGGREGATE_ENUM(id, word, empty, meaning, words) id,
  KELI_AGGREGATES(KELI_AGGREGATE_ENUM)
#undef KELI_AGGREGATE_ENUM
};
const char* aggregate_word(Aggregate a);
const char* aggregate_words(Aggregate a);
std::optional<Aggregate> find_aggregate(std::string_view word);

}  // namespace keli::lang
