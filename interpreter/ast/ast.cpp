// Names of AST enumerations, for messages.
#include "ast/ast.hpp"

namespace keli::ast {

const char* decl_kind_name(DeclKind k) {
  static const char* names[] = {"import", "about",     "param", "players", "pieces",       "const", "var", "region",
                                "track",  "dice",      "def",   "shape",   "board",        "event", "on",  "setup",
                                "phase",  "invariant", "limit", "display", "extend phase", "remove"};
  return names[static_cast<int>(k)];
}

}  // namespace keli::ast
