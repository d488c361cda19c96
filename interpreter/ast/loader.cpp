// Loading a game: files, imports (found by ast/files.hpp inside the folders games may come
// from), a variant's base game, and cycles among them.
#include "ast/loader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include "ast/files.hpp"
#include "ast/parse.hpp"
#include "ast/turn_order.hpp"
#include "lang/limits.hpp"

namespace keli::ast {
namespace fs = std::filesystem;

namespace {
std::string too_large_message(int64_t bytes) {
  return fmt::format("it is {} bytes, more than a source file may be: {} (kMaxSourceBytes)", bytes,
                     lang::kMaxSourceBytes);
}

// Why a file is too large to read as source, or "" (a file whose size cannot be asked is read,
// bounded as it is read).
std::string too_large(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size <= static_cast<uintmax_t>(lang::kMaxSourceBytes)) return "";
  return too_large_message(static_cast<int64_t>(size));
}
}  // namespace

std::string unreadable(const std::string& path) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec) return ec.message();
  if (fs::is_directory(st)) return "it is a folder";
  if (!fs::is_regular_file(st)) return "it is not a regular file";
  if (std::string why = too_large(path); !why.empty()) return why;
  std::ifstream in(path, std::ios::binary);
  if (!in) return "permission denied or not readable";
  return {};
}

bool read_file(const std::string& path, std::string& out) {
  std::string why;
  return read_file(path, out, why);
}

bool read_file(const std::string& path, std::string& out, std::string& why) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    why = ec ? ec.message() : fs::is_directory(path, ec) ? "it is a folder" : "no such file";
    return false;
  }
  if (!(why = too_large(path)).empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "permission denied or not readable";
    return false;
  }
  // Read in pieces up to the limit, so that a file grown since its size was asked stays bounded.
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<size_t>(in.gcount()));
    if (static_cast<int64_t>(text.size()) > lang::kMaxSourceBytes) {
      why = too_large_message(static_cast<int64_t>(text.size()));
      return false;
    }
  }
  if (in.bad()) {
    why = "a read error";
    return false;
  }
  out = std::move(text);
  return true;
}

namespace {

// One file on the way from the game the user named to the file being loaded, and the import or
// `extends` that leads on from it (to say where a cycle starts).
struct Step {
  std::string key;
  Span next;
};

class Loader {
 public:
  Loader(SourceSet& src, diag::Diagnostics& diags, std::string root)
      : src_(src), diags_(diags), root_(std::move(root)) {}

  // Loads `path` and everything it needs; returns the module index or -1.
  int load(const std::string& path, Span from, Loaded& out) {
    std::string key = fs::weakly_canonical(path, ec_).string();
    if (ec_) key = fs::absolute(path, ec_).lexically_normal().string();
    for (size_t i = 0; i < path_.size(); ++i)
      if (path_[i].key == key) return cycle(i, from);
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return done_[i];
    int file = read(path, from);
    if (file < 0) return -1;
    keys_.push_back(key);
    done_.push_back(-1);
    size_t slot = keys_.size() - 1;
    auto mod = parse_module(src_, file, diags_);
    if (!mod) return -1;
    path_.push_back({key, {}});
    bool ok = true;
    if (!mod->extends.empty()) ok = load_named("the base game", mod->extends, mod->extends_span, path, out) && ok;
    for (auto& d : mod->decls)
      if (d.kind == DeclKind::Import) ok = load_named("import", d.name, d.name_span, path, out) && ok;
    path_.pop_back();
    out.modules.push_back(std::move(*mod));
    done_[slot] = static_cast<int>(out.modules.size()) - 1;
    return ok ? done_[slot] : -1;
  }

 private:
  // An import or base (`what`) `name` written at `at` in `from_file`: found inside the allowed folders.
  bool load_named(const char* what, const std::string& name, Span at, const std::string& from_file, Loaded& out) {
    Located found = locate(name, origin_of_import(from_file, root_));
    if (found.path.empty()) {
      bool missing = !found.outside && found.error.rfind("cannot find", 0) == 0;
      diags_.report(found.outside ? diag::Code::forbidden_file : diag::Code::unreadable_file, at,
                    missing ? fmt::format("cannot find {} '{}'", what, name) : found.error, found.hint);
      return false;
    }
    path_.back().next = at;
    return load(found.path, at, out) >= 0;
  }

  // Reads a file and adds it to the sources; a file that is not Keli source is added without its
  // text, so that no diagnostic can show a line of it.
  int read(const std::string& path, Span from) {
    std::string text;
    auto bad = not_keli_source(path, "");
    if (bad) {
      diags_.report(diag::Code::forbidden_file, from, bad->message,
                    "name a .keli file; other files are never read, so that no error can show their content");
      return -1;
    }
    std::string why = unreadable(path);
    if (why.empty()) read_file(path, text, why);
    if (!why.empty()) {
      if (!too_large(path).empty()) {
        diags_.report(diag::Code::unreadable_file, from, fmt::format("cannot read '{}': {}", path, why),
                      "is this the file you meant? A game, import or base is Keli source of at most that size");
        return -1;
      }
      diags_.report(diag::Code::unreadable_file, from, fmt::format("cannot read '{}': {}", path, why),
                    from.valid() ? "imports are searched beside the importing file, in its parent folders, in "
                                   "$KELI_PATH, in the --path folders and in Keli's own stdlib/ and games/"
                                 : "check the path and that the file is readable");
      return -1;
    }
    if ((bad = not_keli_source(path, text))) {
      int file = src_.add(path, "");
      diags_.report(diag::Code::forbidden_file, Span{file, bad->line, bad->col, 1}, bad->message,
                    "a game file is UTF-8 text; other files are not shown in errors");
      return -1;
    }
    return src_.add(path, std::move(text));
  }

  // Files that import or extend one another: reported where the cycle starts, with its files.
  int cycle(size_t first, Span from) {
    std::vector<std::string> names;
    for (size_t i = first; i < path_.size(); ++i) names.push_back(fs::path(path_[i].key).filename().string());
    names.push_back(names.front());
    Span at = path_[first].next.valid() ? path_[first].next : from;
    diags_.report(diag::Code::import_cycle, at,
                  fmt::format("files import or extend one another in a cycle: {}", fmt::join(names, " -> ")),
                  "a file can only use files that do not use it; move what both need into a third file");
    return -1;
  }

  SourceSet& src_;
  diag::Diagnostics& diags_;
  std::string root_;  // the folder of the game the user named: its tree is where imports may be
  std::error_code ec_;
  std::vector<std::string> keys_;
  std::vector<int> done_;
  std::vector<Step> path_;
};

}  // namespace

// Without `extra turn` no turn is ever due: `end turn` is the move to the next seat alone and
// `pass turn` does not reset `turns_due`, which the game then does not have (its state and traces
// stay as they were before it wrote `end turn`).
static void drop_turns_due(Block& b) {
  Block kept;
  for (auto& s : b) {
    for (auto& inner : s->blocks) drop_turns_due(inner);
    if (s->turn_part == TurnPart::DueReset) continue;
    if (s->turn_part == TurnPart::EndTurnIf) {
      for (auto& e : s->blocks.back()) kept.push_back(std::move(e));
      continue;
    }
    kept.push_back(std::move(s));
  }
  b = std::move(kept);
}

static void drop_turns_due(Module& m) {
  for (auto& d : m.decls) {
    drop_turns_due(d.body);
    for (auto& mv : d.moves) drop_turns_due(mv.body);
  }
}

void add_turn_order(Loaded& out, const std::function<bool(const std::string& name)>& load_own) {
  bool uses = false, declares = false, extra = false;
  for (const auto& m : out.modules) {
    uses = uses || m.uses_turns || m.declares_turn_order;
    declares = declares || m.declares_turn_order;
    extra = extra || m.uses_extra_turns;
  }
  if (!uses) return;
  if (!extra)
    for (auto& m : out.modules) drop_turns_due(m);
  size_t before = out.modules.size();
  bool ok = load_own(turn_order::kLibraryFile);
  if (extra) ok = load_own(turn_order::kExtraTurnsFile) && ok;
  if (!declares) ok = load_own(turn_order::kDefaultsFile) && ok;
  // The library comes first, so that a game's own `turns_due` is the one reported as declared twice.
  size_t added = out.modules.size() - before;
  std::rotate(out.modules.begin(), out.modules.begin() + static_cast<long>(before), out.modules.end());
  out.main = ok ? out.main + static_cast<int>(added) : -1;
}

Loaded load_game(const std::string& path, SourceSet& src, diag::Diagnostics& diags) {
  Loaded out;
  std::error_code ec;
  Loader loader(src, diags, fs::absolute(path, ec).parent_path().string());
  out.main = loader.load(path, Span{}, out);
  if (out.main >= 0)
    add_turn_order(out, [&](const std::string& name) { return loader.load(own_library_file(name), Span{}, out) >= 0; });
  out.ok = out.main >= 0 && !diags.has_errors();
  return out;
}

}  // namespace keli::ast
