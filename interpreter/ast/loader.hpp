// Loading a game: read the file, its imports (once each) and its base game when it is a variant,
// parse them all, and return the modules in the order their declarations take effect.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ast/ast.hpp"
#include "diag/diagnostics.hpp"

namespace keli::ast {

struct Loaded {
  std::vector<Module> modules;  // imports before their importer, a base before its variant
  int main = -1;                // index of the file the user named
  bool ok = false;              // false if any file could not be read or parsed
};

// Why `path` cannot be read as a file ("it is a folder", a system message), or "" when it can.
std::string unreadable(const std::string& path);

// Reads a whole file; false if it cannot be read.
bool read_file(const std::string& path, std::string& out);
// The same, saying why it could not (a folder, no such file, more than kMaxSourceBytes bytes).
bool read_file(const std::string& path, std::string& out, std::string& why);

Loaded load_game(const std::string& path, SourceSet& src, diag::Diagnostics& diags);

// What load_game does once a game's own files are loaded: a game that passes the turn with `end
// turn`, `pass turn` or `extra turn`, or declares `turn order`, gets Keli's own
// stdlib/turn_order.keli (never a file of that name elsewhere), and its defaults when none of its
// files declares `turn order`. `load_own` adds the module of one of those stdlib/ files (named as
// ast/turn_order.hpp names them) to out.modules, or finds it there already; false when it cannot.
// Callers that hold the library parsed (the fuzz targets) pass their own.
void add_turn_order(Loaded& out, const std::function<bool(const std::string& name)>& load_own);

}  // namespace keli::ast
