// The emitter on local collections: each operation calls the function of lang/collections.hpp
// the interpreter calls (runtime/machine_domains.cpp), on the storage in the context's L, and a
// fault is reported with the values the interpreter's message names.
#include <fmt/format.h>

#include "lang/collections.hpp"
#include "native/emitter.hpp"

namespace keli::native {
using compile::Node;
using compile::Op;

namespace {
std::string storage(const Node& n) { return fmt::format("L + {}", n.a); }
std::string kind(const Node& n) { return fmt::format("static_cast<keli::lang::CollKind>({})", n.aux); }
}  // namespace

// The storage, kind and capacity: what coll_value takes before the position.
std::string Emitter::collection_args(const Node& n) { return fmt::format("{}, {}, {}", storage(n), kind(n), n.c); }

// `group(T, s)` or `border(T, s)`: the search of lang/collections.hpp the interpreter runs
// (runtime/machine_domains.cpp), over the state's cells of T and the neighbour lists, into the
// node's storage, opened as a local set is; a site off the board is T's index error there too.
Emitter::Dom Emitter::search_domain(const Node& n, int idx, const std::string& size) {
  const compile::VarInfo& t = p_.vars[n.b];
  const int nb = p_.region_tables[p_.neighbour_table].base;
  const int64_t set_slots = lang::coll_slots(lang::CollKind::Set, n.c);
  const std::string from = expr(n.k[0]);
  line(fmt::format("if ({} < 0 || {} >= {}) {};", from, from, p_.num_sites, fault(idx, "KELI_FAULT_INDEX", "0", from)));
  // The neighbours the search read are charged before the loop charges the sites it gives.
  line(
      fmt::format("spend(c, {}, keli::lang::coll_flood(L + {}, L + {}, {}, s + {}, {}, {}, [](int64_t t, int* k) {{ "
                  "*k = RN[{} + t]; return RS + RO[{} + t]; }}));",
                  idx, n.a, n.a + set_slots, n.c, t.base, from, n.aux ? "true" : "false", nb, nb));
  Dom d;
  d.size = size;
  d.coll = fmt::format("L + {}, keli::lang::CollKind::Set, {}", n.a, n.c);
  line(fmt::format("const int {} = static_cast<int>(keli::lang::coll_size(L + {}, keli::lang::CollKind::Set));", size,
                   n.a));
  return d;
}

// `x in C`, C[i], size(C), first(C), ..., take_last(C).
std::string Emitter::collection_expr(const Node& n, int idx) {
  const std::string t = tmp();
  if (n.op == Op::CollHas) {
    const std::string v = expr(n.k[0]);
    line(fmt::format("spend(c, {}, keli::lang::coll_work({}, {}, true, false));", idx, storage(n), kind(n)));
    line(fmt::format("const int64_t {} = keli::lang::coll_has({}, {}, {}, {}, {}) ? 1 : 0;", t, storage(n), kind(n),
                     n.b, n.c, v));
    return t;
  }
  std::string call, operand = "0";
  if (n.op == Op::CollGet) {
    operand = expr(n.k[0]);
    call = fmt::format("keli::lang::coll_get({}, {}, {}, {}, &{})", storage(n), kind(n), n.c, operand, t);
  } else {
    const std::string fn = fmt::format("static_cast<keli::lang::CollFunction>({})", n.d);
    line(
        fmt::format("spend(c, {}, keli::lang::coll_work({}, {}, false, keli::lang::coll_takes({}) && "
                    "!keli::lang::coll_turns({}, {})));",
                    idx, storage(n), kind(n), fn, kind(n), fn));
    call = fmt::format("keli::lang::coll_call({}, {}, {}, {}, static_cast<keli::lang::CollFunction>({}), &{})",
                       storage(n), kind(n), n.b, n.c, n.d, t);
  }
  line(fmt::format("int64_t {} = 0;", t));
  line(fmt::format("coll_check(c, {}, {}, {}, {}, {});", idx, call, operand, storage(n), kind(n)));
  return t;
}

// The `let` and `clear` of C, `add x to C`, `remove x from C`.
void Emitter::collection_stmt(const Node& n, int idx) {
  if (n.op == Op::CollClear) {
    line(fmt::format("keli::lang::coll_clear({}, {});", storage(n), kind(n)));
    return;
  }
  open("{");
  const std::string v = expr(n.k[0]);
  const char* fn = n.op == Op::CollAdd ? "coll_add" : "coll_remove";
  if (n.op == Op::CollRemove)
    line(fmt::format("spend(c, {}, keli::lang::coll_work({}, {}, true, true));", idx, storage(n), kind(n)));
  line(fmt::format("coll_check(c, {}, keli::lang::{}({}, {}, {}, {}, {}), {}, {}, {});", idx, fn, storage(n), kind(n),
                   n.b, n.c, v, v, storage(n), kind(n)));
  close();
}

}  // namespace keli::native
