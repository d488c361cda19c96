// The built-in tables' rows and look-ups.
#include "lang/builtins.hpp"

namespace keli::lang {
using T = Type;

static const BuiltinInfo kFunctions[] = {
#define KELI_BUILTIN_ROW(id, name, arity, res, a0, a1, where, doc, words) \
  {Builtin::id, name, arity, T::res, {T::a0, T::a1}, Where::where, doc, words},
    KELI_BUILTIN_FUNCTIONS(KELI_BUILTIN_ROW)
#undef KELI_BUILTIN_ROW
};

static const BuiltinVarInfo kVariables[] = {
#define KELI_BUILTIN_VAR_ROW(id, name, type, writable, where, doc, words) \
  {BuiltinVar::id, name, T::type, writable, Where::where, doc, words},
    KELI_BUILTIN_VARIABLES(KELI_BUILTIN_VAR_ROW)
#undef KELI_BUILTIN_VAR_ROW
};

const BuiltinInfo& builtin_info(Builtin b) { return kFunctions[static_cast<size_t>(b)]; }
const BuiltinVarInfo& builtin_var_info(BuiltinVar v) { return kVariables[static_cast<size_t>(v)]; }

int find_builtin(std::string_view name) {
  for (const auto& f : kFunctions)
    if (name == f.name) return static_cast<int>(f.id);
  return -1;
}

int find_builtin_var(std::string_view name) {
  for (const auto& v : kVariables)
    if (name == v.name) return static_cast<int>(v.id);
  return -1;
}

}  // namespace keli::lang
