// The one meaning of every operator on numbers: the checker's folding, the compiler's constants,
// the optimizer, the interpreter and the native engine's generated C++ all call these functions,
// so a value worked out before play is the value play would give. Header-only and free of other
// Keli headers, so that generated code can include it alone.
//
// Values are 64-bit while they are computed; a result that does not fit in 64 bits is a fault
// (never C++ undefined behaviour), as is dividing by zero. What is stored in the state must fit
// in 32 bits (fits_state).
#pragma once

#include <cstdint>

#include "lang/operators.hpp"

namespace keli::lang {

enum class Fault : uint8_t { None, DivisionByZero, Overflow };

struct Result {
  int64_t value = 0;
  Fault fault = Fault::None;
  constexpr bool ok() const { return fault == Fault::None; }
};

// The message a fault is reported with, at the operator's position.
constexpr const char* fault_message(Fault f) {
  switch (f) {
    case Fault::None: return "";
    case Fault::DivisionByZero: return "division by zero";
    case Fault::Overflow: return "arithmetic overflow: the result does not fit in 64 bits";
  }
  return "";
}

// Binary operators on two values (Logic on truth values: the evaluators short-circuit before
// calling And/Or, so only both sides' values reach here). `In` is not arithmetic: it reads the
// board, so each evaluator answers it from its region tables.
template <Operator op>
constexpr Result apply(int64_t a, int64_t b) {
  int64_t r = 0;
  if constexpr (op == Operator::Add) {
    if (__builtin_add_overflow(a, b, &r)) return {0, Fault::Overflow};
    return {r};
  } else if constexpr (op == Operator::Sub) {
    if (__builtin_sub_overflow(a, b, &r)) return {0, Fault::Overflow};
    return {r};
  } else if constexpr (op == Operator::Mul) {
    if (__builtin_mul_overflow(a, b, &r)) return {0, Fault::Overflow};
    return {r};
  } else if constexpr (op == Operator::Div) {
    if (b == 0) return {0, Fault::DivisionByZero};
    if (a == INT64_MIN && b == -1) return {0, Fault::Overflow};
    return {a / b};
  } else if constexpr (op == Operator::Mod) {
    if (b == 0) return {0, Fault::DivisionByZero};
    if (b == -1) return {0};  // INT64_MIN % -1 is undefined in C++; every remainder by -1 is 0
    int64_t m = a % b;
    return {m < 0 ? (b < 0 ? m - b : m + b) : m};  // the mathematical modulo: never negative
  } else if constexpr (op == Operator::Eq) {
    return {a == b};
  } else if constexpr (op == Operator::Ne) {
    return {a != b};
  } else if constexpr (op == Operator::Lt) {
    return {a < b};
  } else if constexpr (op == Operator::Le) {
    return {a <= b};
  } else if constexpr (op == Operator::Gt) {
    return {a > b};
  } else if constexpr (op == Operator::Ge) {
    return {a >= b};
  } else if constexpr (op == Operator::And) {
    return {a != 0 && b != 0};
  } else if constexpr (op == Operator::Or) {
    return {a != 0 || b != 0};
  } else {
    static_assert(op != Operator::In && op != Operator::Not && op != Operator::Neg, "not a binary operator on numbers");
    return {0};
  }
}

// Unary operators.
template <Operator op>
constexpr Result apply(int64_t a) {
  if constexpr (op == Operator::Neg) {
    if (a == INT64_MIN) return {0, Fault::Overflow};
    return {-a};
  } else {
    static_assert(op == Operator::Not, "not a unary operator");
    return {a == 0};
  }
}

// The same, chosen at run time (the interpreter's and the folders' entry point).
constexpr Result apply(Operator op, int64_t a, int64_t b) {
  switch (op) {
    case Operator::Add: return apply<Operator::Add>(a, b);
    case Operator::Sub: return apply<Operator::Sub>(a, b);
    case Operator::Mul: return apply<Operator::Mul>(a, b);
    case Operator::Div: return apply<Operator::Div>(a, b);
    case Operator::Mod: return apply<Operator::Mod>(a, b);
    case Operator::Eq: return apply<Operator::Eq>(a, b);
    case Operator::Ne: return apply<Operator::Ne>(a, b);
    case Operator::Lt: return apply<Operator::Lt>(a, b);
    case Operator::Le: return apply<Operator::Le>(a, b);
    case Operator::Gt: return apply<Operator::Gt>(a, b);
    case Operator::Ge: return apply<Operator::Ge>(a, b);
    case Operator::And: return apply<Operator::And>(a, b);
    case Operator::Or: return apply<Operator::Or>(a, b);
    case Operator::Neg: return apply<Operator::Neg>(a);
    case Operator::Not: return apply<Operator::Not>(a);
    case Operator::In: break;
  }
  return {0};
}
constexpr Result apply(Operator op, int64_t a) { return apply(op, a, 0); }

// Built-in functions on numbers share the same rule: no undefined behaviour.
constexpr Result absolute(int64_t a) {
  if (a == INT64_MIN) return {0, Fault::Overflow};
  return {a < 0 ? -a : a};
}

// What a state slot holds: a 32-bit integer. A value outside is reported, never cut.
constexpr bool fits_state(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

}  // namespace keli::lang
