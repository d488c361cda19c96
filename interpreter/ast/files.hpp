// Where game files may come from: the one resolver that imports, bases (`extends`), a trace's
// `file` and a scenario's `game:` go through, and the test that a file holds Keli source before
// any of its text can reach a diagnostic. docs/language.md (Imports) states the rules.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace keli::ast {

// Folders named with --path (repeatable), for every later look-up of this process.
void set_search_path(std::vector<std::string> dirs);

// The folders every look-up may end in besides its own: Keli's stdlib/ and games/, $KELI_PATH
// and the --path folders.
std::vector<std::string> library_roots();

// Keli's own games/ folder: the library of games (keli.registered_names()).
std::string own_games_folder();
// A file of Keli's own stdlib/, by name (the library files the loader adds itself).
std::string own_library_file(const std::string& name);

// Where a file named by another file (or by a trace, or a scenario) is looked for, and where it
// must turn out to lie. A name is tried against each of `bases` in order; the first existing
// file wins if, links followed, it lies inside one of `roots` or of library_roots(). Relative
// names are also tried against Keli's source tree (so "stdlib/rows.keli" works from anywhere).
struct Origin {
  std::vector<std::string> bases;
  std::vector<std::string> roots;
};

// What a look-up found: the path to open, or why there is none (a sentence naming the file,
// never quoting it). `outside` tells a file that exists but may not be read from a missing one.
struct Located {
  std::string path;
  std::string error;
  std::string hint;
  bool outside = false;
  std::string outside_folder;  // when outside: the folder of the file found there, absolute
};

Located locate(const std::string& name, const Origin& from);

// The origin of a name written in the Keli file `file`: tried beside it and up its parent
// folders; may end in the folder `root` (the game's own folder tree) or the library roots.
Origin origin_of_import(const std::string& file, const std::string& root);

// Why `text` (of `path`) is not Keli source, or nothing when it is: a name that does not end in
// .keli, a NUL or control byte, or bytes that are not UTF-8. `line` and `col` say where.
struct NotSource {
  std::string message;
  unsigned line = 1, col = 1;
};
std::optional<NotSource> not_keli_source(const std::string& path, std::string_view text);

}  // namespace keli::ast
