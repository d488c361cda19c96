// Names of AST enumerations, for messages.
#include "ast/ast.hpp"

namespace keli::ast {

const char* type_name(Type t) {
  static const char* names[] = {"an erroneous value", "nothing", "an int", "a bool", "a site", "a player",
                                "a piece", "a choice", "a region or track", "a phase", "dice", "a string",
                                "a domain"};
  return names[static_cast<int>(t)];
}

const char* decl_kind_name(DeclKind k) {
  static const char* names[] = {"import", "about", "param", "players", "pieces", "const", "var", "region",
                                "track", "dice", "def", "shape", "board", "event", "on", "setup", "phase",
                                "invariant", "limit", "display", "extend phase"};
  return names[static_cast<int>(k)];
}

}  // namespace keli::ast
