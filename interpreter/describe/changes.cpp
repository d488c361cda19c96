// What a variant changes from its base, worked out from the AST modules as loaded (before
// checking): the variant's declarations against the names its base (with the base's imports)
// declares. This follows the rules in docs/language.md "File structure": a definition of the same
// name and kind replaces the base's, `param NAME = VALUE` sets a default, handlers, setups,
// invariants, displays and about entries add to the base's.
#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "ast/loader.hpp"
#include "describe/describe.hpp"

namespace keli::describe {
using ast::DeclKind;

namespace {

// The declarations that carry a global name and may be replaced by a variant.
bool is_definition(DeclKind k) {
  switch (k) {
    case DeclKind::Param:
    case DeclKind::Const:
    case DeclKind::Var:
    case DeclKind::Region:
    case DeclKind::Track:
    case DeclKind::Dice:
    case DeclKind::Def:
    case DeclKind::Shape:
    case DeclKind::Event:
    case DeclKind::Phase: return true;
    default: return false;
  }
}

// What a declaration a game has at most one of is known by: players, pieces, or a limit by its
// name (`limit points` does not set `limit moves`).
std::string single_key(const ast::Decl& d) {
  return d.kind == DeclKind::Limit ? "limit " + d.name : std::to_string(static_cast<int>(d.kind));
}

// What the base (its own file, its imports, and its base if it is itself a variant) declares,
// in the order the declarations take effect: a later one overrides an earlier one.
struct BaseNames {
  std::map<std::string, DeclKind> kinds;
  std::map<std::string, std::string> defaults;  // parameter -> default in effect
  std::map<std::string, std::string> singles;   // single_key of players, pieces, a limit -> its value as written
  bool has_board = false;

  void add(const ast::Decl& d) {
    if (is_definition(d.kind) && !d.override_only) kinds[d.name] = d.kind;
    if (d.kind == DeclKind::Param && d.value) defaults[d.name] = expr_text(*d.value);
    if ((d.kind == DeclKind::Players || d.kind == DeclKind::Pieces || d.kind == DeclKind::Limit) && d.value)
      singles[single_key(d)] = expr_text(*d.value);
    if (d.kind == DeclKind::Board) has_board = true;
  }
};

// The index of the base's module: the loader reads a variant's base right after the variant's
// own file (so the base's file id follows the variant's), and pushes a module after everything
// it loads; the base's module therefore closes the range of modules that belong to the base.
int base_module(const ast::Loaded& l, const SourceSet& src) {
  const ast::Module& main = l.modules[l.main];
  std::string want = std::filesystem::path(main.extends).filename().string();
  for (int i = 0; i < l.main; ++i) {
    const ast::Module& m = l.modules[i];
    if (m.file == main.file + 1 && std::filesystem::path(src.file(m.file).path).filename().string() == want) return i;
  }
  return l.main - 1;  // not found as expected: count everything read before the variant as the base's
}

std::string single_name(const ast::Decl& d) {
  if (d.kind == DeclKind::Display && d.names.size() == 2)
    return fmt::format("pieces at {} by {}", d.names[0], d.names[1]);
  if (d.kind == DeclKind::Display && d.type == "hand") return "hand " + d.name;
  if (d.kind == DeclKind::On) {
    std::string formals;
    for (size_t i = 0; i < d.formals.size(); ++i) formals += (i ? ", " : "") + d.formals[i].name;
    std::string guard = d.guard ? " when " + expr_text(*d.guard) : "";
    return fmt::format("{}({}){}", d.name, formals, guard);
  }
  return d.name;
}

}  // namespace

std::vector<Change> variant_changes(const std::string& path, std::string& base_game) {
  std::vector<Change> out;
  SourceSet src;
  diag::Diagnostics diags;
  ast::Loaded l = ast::load_game(path, src, diags);
  if (!l.ok || l.main < 0 || l.modules[l.main].extends.empty()) return out;
  int last = base_module(l, src);
  BaseNames base;
  for (int i = 0; i <= last; ++i)
    for (const auto& d : l.modules[i].decls) base.add(d);
  if (last >= 0) base_game = l.modules[last].game_name;

  for (const auto& d : l.modules[l.main].decls) {
    const char* kind = ast::decl_kind_name(d.kind);
    switch (d.kind) {
      case DeclKind::Import: out.push_back({"adds", kind, d.name, "", ""}); break;
      case DeclKind::About:
        for (const auto& [key, value] : d.entries) out.push_back({"adds", "about", key, "", value});
        break;
      case DeclKind::Players:
      case DeclKind::Pieces:
      case DeclKind::Limit: {
        auto it = base.singles.find(single_key(d));
        std::string to = d.value ? expr_text(*d.value) : "";
        if (it == base.singles.end())
          out.push_back({"adds", kind, d.name, "", to});
        else
          out.push_back({"sets", kind, d.name, it->second, to});
        break;
      }
      case DeclKind::Board: out.push_back({base.has_board ? "replaces" : "adds", kind, "", "", ""}); break;
      case DeclKind::Setup: out.push_back({"adds", kind, "", "", ""}); break;
      case DeclKind::Extend:  // one change per rule: `override move` replaces the base phase's rule
        for (const auto& m : d.moves)
          out.push_back({m.is_removal    ? "removes"
                         : m.is_override ? "replaces"
                                         : "adds",
                         "move", m.name + " (phase " + d.name + ")", "", ""});
        break;
      case DeclKind::On: out.push_back({d.is_override ? "replaces" : "adds", "handler", single_name(d), "", ""}); break;
      case DeclKind::Invariant: out.push_back({d.is_override ? "replaces" : "adds", kind, d.doc, "", ""}); break;
      case DeclKind::Remove:
        out.push_back({"removes", d.removes == DeclKind::On ? "handler" : "invariant", d.name, "", ""});
        break;
      case DeclKind::Display: out.push_back({"adds", kind, single_name(d), "", ""}); break;
      case DeclKind::Directions:
      case DeclKind::Repetitions:
      case DeclKind::Coordinates:  // declared once: a variant's replaces its base's
        out.push_back({d.is_override ? "replaces" : "adds", kind, "", "", ""});
        break;
      default: {
        if (d.kind == DeclKind::Param) {
          auto def = base.defaults.find(d.name);
          std::string to = d.value ? expr_text(*d.value) : "";
          if (d.override_only) {
            out.push_back({"sets", "parameter", d.name, def == base.defaults.end() ? "" : def->second, to});
            break;
          }
          if (def != base.defaults.end()) {
            out.push_back({"replaces", "parameter", d.name, def->second, to});
            break;
          }
        }
        auto it = base.kinds.find(d.name);
        bool replaces = it != base.kinds.end() && it->second == d.kind;
        out.push_back({replaces ? "replaces" : "adds", d.kind == DeclKind::Param ? "parameter" : kind, d.name, "", ""});
      }
    }
  }
  return out;
}

}  // namespace keli::describe
