// Look-ups over the vocabulary's tables: operators by spelling, node kinds' metadata, type names.
#include <string_view>

#include "lang/nodes.hpp"
#include "lang/operators.hpp"
#include "lang/types.hpp"

namespace keli::lang {

std::optional<Operator> find_operator(std::string_view spelling, int operands) {
  for (const auto& o : kOperators)
    if (spelling == o.spelling && o.operands == operands) return o.id;
  return std::nullopt;
}

// The position of `word` in a table of words, as the enumeration E the table is in the order of.
template <typename E, size_t N>
static std::optional<E> find_word(const char* const (&table)[N], std::string_view word) {
  for (size_t i = 0; i < N; ++i)
    if (word == table[i]) return static_cast<E>(i);
  return std::nullopt;
}

static const char* const kAssignSpellings[] = {
#define KELI_ASSIGN_ROW(id, spelling, words) spelling,
    KELI_ASSIGNMENTS(KELI_ASSIGN_ROW)
#undef KELI_ASSIGN_ROW
};
static const char* const kAssignWords[] = {
#define KELI_ASSIGN_WORDS(id, spelling, words) words,
    KELI_ASSIGNMENTS(KELI_ASSIGN_WORDS)
#undef KELI_ASSIGN_WORDS
};
const char* assign_words(Assign a) { return kAssignWords[static_cast<int>(a)]; }
const char* assign_spelling(Assign a) { return kAssignSpellings[static_cast<int>(a)]; }
std::optional<Assign> find_assign(std::string_view spelling) { return find_word<Assign>(kAssignSpellings, spelling); }

static const char* const kAggregateWords[] = {
#define KELI_AGGREGATE_ROW(id, word, empty, meaning, words) word,
    KELI_AGGREGATES(KELI_AGGREGATE_ROW)
#undef KELI_AGGREGATE_ROW
};
static const char* const kAggregateWordings[] = {
#define KELI_AGGREGATE_WORDS(id, word, empty, meaning, words) words,
    KELI_AGGREGATES(KELI_AGGREGATE_WORDS)
#undef KELI_AGGREGATE_WORDS
};
const char* aggregate_words(Aggregate a) { return kAggregateWordings[static_cast<int>(a)]; }
const char* aggregate_word(Aggregate a) { return kAggregateWords[static_cast<int>(a)]; }
std::optional<Aggregate> find_aggregate(std::string_view word) { return find_word<Aggregate>(kAggregateWords, word); }

static const NodeKindInfo kNodeKinds[] = {
#define KELI_NODE_ROW(id, operands, meaning) {NodeKind::id, #id, operands, meaning},
    KELI_NODE_KINDS(KELI_NODE_ROW)
#undef KELI_NODE_ROW
};
const NodeKindInfo& node_kind_info(NodeKind k) { return kNodeKinds[static_cast<int>(k)]; }

// Operators and their node kinds share their names (lang/operators.hpp, lang/nodes.hpp).
std::optional<Operator> node_operator(NodeKind k) {
  switch (k) {
#define KELI_NODE_OP(id, spelling, operands, precedence, cls, meaning, words) \
  case NodeKind::id: return Operator::id;
    KELI_OPERATORS(KELI_NODE_OP)
#undef KELI_NODE_OP
    default: return std::nullopt;
  }
}

NodeKind operator_node(Operator op) {
  switch (op) {
#define KELI_OP_NODE(id, spelling, operands, precedence, cls, meaning, words) \
  case Operator::id: return NodeKind::id;
    KELI_OPERATORS(KELI_OP_NODE)
#undef KELI_OP_NODE
  }
  return NodeKind::Imm;  // unreachable: every operator has a node kind
}

const char* type_name(Type t) {
  static const char* names[] = {
      // in the order of Type
      "an erroneous value", "nothing",           "an int",          "a bool",      "a site",   "a player", "a piece",
      "a choice",           "a region or track", "a phase",         "dice",        "a string", "a domain", "none",
      "a site or none",     "a player or none",  "a piece or none", "a direction", "a list",   "a set"};
  return names[static_cast<int>(t)];
}

}  // namespace keli::lang
