// The compiled program's node kinds: one table with each kind's operands and meaning, in the
// manner of Lua's lopcodes.h. compile/ emits these nodes, the optimizer rewrites them, runtime/
// evaluates them and native/ turns them into C++. A node (compile/program.hpp) has the fields
// aux, a, b, c, d, k[0..3] and next; the operand column says which each kind uses.
#pragma once

#include <cstdint>

#include "lang/operators.hpp"

namespace keli::lang {

// X(id, operands, meaning)
#define KELI_NODE_KINDS(X)                                                                                     \
  /* values */                                                                                                 \
  X(Imm, "a=value", "a constant")                                                                              \
  X(Local, "a=slot", "a local variable or parameter")                                                          \
  X(StateGet, "a=table k0..k3=indices", "a cell of a state table (k -1 when unused)")                          \
  X(ConstGet, "a=table k0..k3=indices", "a cell of a constant table")                                          \
  X(Mover, "", "the seat whose decision it is")                                                                \
  X(Phase, "", "the phase the game is in")                                                                     \
  X(Ply, "", "decisions and chance events so far")                                                             \
  X(Repetitions, "", "how many earlier positions of the game equal this one (lang/history.hpp)")               \
  X(Roll, "k0=die", "a value of the current throw")                                                            \
  X(RegionId, "a=region table k0..k3=indices", "which region or track instance")                               \
  X(RegionSite, "k0=region k1=position", "the site at a position of a region or track")                        \
  X(Neg, "k0", "-x")                                                                                           \
  X(Not, "k0", "not x")                                                                                        \
  X(Add, "k0 k1", "x + y")                                                                                     \
  X(Sub, "k0 k1", "x - y")                                                                                     \
  X(Mul, "k0 k1", "x * y")                                                                                     \
  X(Div, "k0 k1", "x / y")                                                                                     \
  X(Mod, "k0 k1", "x % y")                                                                                     \
  X(Eq, "k0 k1", "x == y")                                                                                     \
  X(Ne, "k0 k1", "x != y")                                                                                     \
  X(Lt, "k0 k1", "x < y")                                                                                      \
  X(Le, "k0 k1", "x <= y")                                                                                     \
  X(Gt, "k0 k1", "x > y")                                                                                      \
  X(Ge, "k0 k1", "x >= y")                                                                                     \
  X(And, "k0 k1", "x and y, y only when x")                                                                    \
  X(Or, "k0 k1", "x or y, y only when not x")                                                                  \
  X(In, "k0=site k1=region", "the site stands in the region")                                                  \
  X(Cond, "k0 k1 k2", "if k0 then k1 else k2")                                                                 \
  X(Call, "a=callable b=first argument c=count", "a call of a definition (arguments in args)")                 \
  X(Builtin, "a=builtin k0,k1=arguments", "a built-in function (lang/builtins.hpp)")                           \
  X(AggSum, "a=slot k0=domain k1=body k2=filter k3=while", "sum over a domain")                                \
  X(AggCount, "a=slot k0=domain k1=body k2=filter k3=while", "count over a domain")                            \
  X(AggAny, "a=slot k0=domain k1=body k2=filter k3=while", "any over a domain")                                \
  X(AggAll, "a=slot k0=domain k1=body k2=filter k3=while", "all over a domain")                                \
  X(AggMin, "a=slot k0=domain k1=body k2=filter k3=while", "min over a domain")                                \
  X(AggMax, "a=slot k0=domain k1=body k2=filter k3=while", "max over a domain")                                \
  X(FactGet, "a=fact k0=other index aux=FactRead", "a count the engine keeps (compile/facts.cpp)")             \
  /* local collections (lang/collections.hpp): a=first slot aux=CollKind b=low c=capacity */                   \
  X(CollHas, "a b c aux k0=value", "whether a local collection holds the value")                               \
  X(CollCall, "a b c aux d=CollFunction", "size, first, last, take_first or take_last of a collection")        \
  X(CollGet, "a b c aux k0=position", "the value at a position of a local list or set")                        \
  /* domains: only as the domain child of For, Agg* and move parameters */                                     \
  X(DomRange, "k0=low k1=high", "the numbers low..high")                                                       \
  X(DomRegion, "k0=region", "the sites of a region or track, in order")                                        \
  X(DomCount, "aux=DomainOf", "every site, seat or piece")                                                     \
  X(DomIndex, "a=domain index k0=value", "a domain filtered on a constant table (optimizer)")                  \
  X(DomBelow, "k0=ascending domain k1=bound aux=1 if inclusive", "its leading elements below a bound")         \
  X(DomColl, "a b c aux", "the values of a local collection, in its order")                                    \
  X(DomSearch, "a=storage b=state table c=capacity aux=1 for a border k0=site", "group(T, s) or border(T, s)") \
  /* statements, chained through next */                                                                       \
  X(SetLocal, "a=slot aux=Assign k0=value", "assign a local")                                                  \
  X(StateSet, "a=table k0..k3=indices d=value aux=Assign", "assign a state cell")                              \
  X(ConstSet, "a=table k0..k3=indices d=value aux=Assign", "assign a constant cell (board building)")          \
  X(SetMover, "k0=seat", "mover = x")                                                                          \
  X(SetPhase, "k0=phase", "phase = x")                                                                         \
  X(If, "k0=condition k1=then k2=else", "a conditional")                                                       \
  X(While, "k0=condition k1=body", "a loop (bounded by kMaxLoopIterations)")                                   \
  X(For, "a=slot k0=domain k1=body k2=filter k3=while", "a loop over a domain")                                \
  X(Suppose, "k1=body", "run a block, then undo its writes of the game (locals keep theirs)")                  \
  X(Return, "k0=value or -1", "leave the definition")                                                          \
  X(Emit, "a=event b=first argument c=count", "raise an event: its handlers run")                              \
  X(CallStmt, "a=callable b=first argument c=count", "a call for its effect")                                  \
  X(Note, "a=note", "record a note for the trace")                                                             \
  X(AddSite, "k0=site k1=region", "add a site to a region (board building)")                                   \
  X(CollClear, "a b c aux", "empty a local collection (its `let`, `clear`)")                                   \
  X(CollAdd, "a b c aux k0=value", "add a value to a local collection")                                        \
  X(CollRemove, "a b c aux k0=value", "remove a value from a local collection")                                \
  X(Finish, "b=first argument c=count", "give places to seats")                                                \
  X(EndGame, "aux=EndBy a=its table or callable, c=EndBy b=the points'", "end the game, placing the rest")     \
  X(Fail, "a=note", "a runtime error with that message")

enum class NodeKind : uint8_t {
#define KELI_NODE_ENUM(id, operands, meaning) id,
  KELI_NODE_KINDS(KELI_NODE_ENUM)
#undef KELI_NODE_ENUM
};

struct NodeKindInfo {
  NodeKind id;
  const char* name;
  const char* operands;
  const char* meaning;
};
const NodeKindInfo& node_kind_info(NodeKind k);

// The operator a binary or unary node kind computes; none for the others.
std::optional<Operator> node_operator(NodeKind k);
// The node kind that computes an operator.
NodeKind operator_node(Operator op);

// DomCount's aux: which whole set.
enum class DomainOf : uint8_t { Sites, Seats, Pieces };
// EndGame's aux: how the rest are placed (and its c: where the points come from; Plain: none).
enum class EndBy : uint8_t { Plain, Table, Callable };

}  // namespace keli::lang
