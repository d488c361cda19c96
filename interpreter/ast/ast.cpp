// Names of AST enumerations, for messages.
#include "ast/ast.hpp"

#include <iterator>

namespace keli::ast {

const char* decl_kind_name(DeclKind k) {
  static const char* names[] = {
      "import",     "about",       "param",        "players",   "pieces", "const",   "var",
      "region",     "track",       "dice",         "def",       "shape",  "board",   "event",
      "on",         "setup",       "phase",        "invariant", "limit",  "display", "repetitions compare",
      "directions", "coordinates", "extend phase", "remove"};
  static_assert(std::size(names) == static_cast<size_t>(DeclKind::Remove) + 1, "a name for every DeclKind, in order");
  return names[static_cast<int>(k)];
}

}  // namespace keli::ast
