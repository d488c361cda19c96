// keli fmt: lays out Keli files in the one canonical layout (interpreter/format/), in place or,
// with --check, only reporting the files that are not laid out so.
#include <fmt/format.h>

#include <filesystem>

#include "ast/loader.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "format/format.hpp"

namespace keli::cli {

int cmd_fmt(const std::vector<std::string>& argv) {
  bool check = false;
  std::vector<std::string> paths;
  for (const auto& a : argv) {
    if (a == "--check") {
      check = true;
    } else if (a.size() > 1 && a[0] == '-') {
      throw Usage{fmt::format("unknown option '{}'", a)};
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) throw Usage{"name the files or folders to format"};
  std::vector<std::string> missing;
  std::vector<std::string> files = format::collect_files(paths, missing);
  bool failed = false;
  for (const auto& m : missing) {
    // Say why a name leads nowhere: a link loop is not a missing file.
    std::error_code ec;
    (void)std::filesystem::status(m, ec);
    bool other = ec && ec != std::errc::no_such_file_or_directory;
    fmt::print(stderr, "{}: error: {} [E002]\n", m, other ? ec.message() : "no such file or folder");
    failed = true;
  }
  int changed = 0, errors = 0;
  for (const auto& path : files) {
    std::string text;
    if (std::string why; !ast::read_file(path, text, why)) {
      fmt::print(stderr, "{}: error: cannot read the file: {} [E002]\n", path, why);
      ++errors;
      continue;
    }
    format::Result r = format::format_text(path, text);
    if (r.status != format::Result::Ok) {
      fmt::print(stderr, "{}{}", r.message, r.message.ends_with('\n') ? "" : "\n");
      ++errors;
      continue;
    }
    if (r.text == text) continue;
    ++changed;
    if (check) {
      auto d = format::first_difference(text, r.text);
      fmt::print("{}:{}: not formatted\n  - {}\n  + {}\n", path, d.line, d.before, d.after);
      continue;
    }
    std::string why = format::write_atomically(path, r.text);
    if (!why.empty()) {
      fmt::print(stderr, "{}: error: {} [E002]\n", path, why);
      ++errors;
      continue;
    }
    fmt::print("formatted {}\n", path);
  }
  if (check) {
    fmt::print("{} of {} file{} would change{}\n", changed, files.size(), files.size() == 1 ? "" : "s",
               errors ? fmt::format(", {} could not be read or parsed", errors) : "");
  } else {
    fmt::print("{} of {} file{} changed{}\n", changed, files.size(), files.size() == 1 ? "" : "s",
               errors ? fmt::format(", {} could not be read or parsed", errors) : "");
  }
  return failed || errors > 0 || (check && changed > 0) ? kFailed : kOk;
}

}  // namespace keli::cli
