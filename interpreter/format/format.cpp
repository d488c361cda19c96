// `keli fmt` as a library: syntax check, lexing, the parser's roles, layout, and the self-check
// that refuses to write anything whose tokens differ from the input's. Files are found and
// written here too, so the command stays a thin loop and the tests use the same code.
#include "format/format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <unistd.h>

#include "ast/files.hpp"
#include "format/layout.hpp"
#include "format/tokens.hpp"
#include "util/output_file.hpp"

namespace keli::format {

namespace fs = std::filesystem;

Result format_text(const std::string& path, const std::string& text) {
  Result r;
  // Never a line of a file that is not Keli source in an error (ast/files.hpp).
  if (auto bad = ast::not_keli_source(path, text)) {
    r.status = Result::SyntaxError;
    r.message = bad->line ? fmt::format("{}:{}:{}: error: {} [E005]\n", path, bad->line, bad->col, bad->message)
                          : fmt::format("{}: error: {} [E005]\n", path, bad->message);
    return r;
  }
  Roles roles;
  if (!find_roles(path, text, roles, r.message)) {
    r.status = Result::SyntaxError;
    return r;
  }
  std::vector<Token> before = lex(text);
  std::string out = layout(before, roles);
  std::vector<Token> after = lex(out);
  long k = first_token_difference(before, after);
  if (k >= 0) {
    // A bug in the layout: say where, and write nothing.
    const Token* t = static_cast<size_t>(k) < before.size() ? &before[k] : nullptr;
    r.status = Result::InternalError;
    r.message = fmt::format(
        "{}:{}: internal error: the formatted text would not keep token {} ('{}'); "
        "the file is left unchanged (please report this)",
        path, t ? t->line : 0, k + 1, t ? std::string(t->text) : std::string("end of file"));
    return r;
  }
  r.text = std::move(out);
  return r;
}

namespace {
std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  if (!s.empty() && s.back() != '\n') lines.back() += "\\ no newline at the end";
  return lines;
}
}  // namespace

LineDiff first_difference(const std::string& before, const std::string& after) {
  LineDiff d;
  if (before == after) return d;
  auto a = split_lines(before), b = split_lines(after);
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  d.line = i + 1;
  d.before = i < a.size() ? a[i] : "";
  d.after = i < b.size() ? b[i] : "";
  return d;
}

std::vector<std::string> collect_files(const std::vector<std::string>& paths, std::vector<std::string>& missing) {
  std::set<std::string> seen;
  std::vector<std::string> out;
  auto add = [&](const fs::path& p) {
    std::string s = p.lexically_normal().string();
    if (seen.insert(s).second) out.push_back(s);
  };
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file(ec) && it->path().extension() == ".keli") found.push_back(it->path().string());
      std::sort(found.begin(), found.end());
      for (const auto& f : found) add(f);
    } else if (fs::exists(p, ec)) {
      add(p);  // a file named on the command line that is not Keli source is refused by format_text
    } else {
      missing.push_back(p);
    }
  }
  return out;
}

std::string write_atomically(const std::string& path, const std::string& text) {
  return util::write_file(path, text);  // through a symbolic link to its file; the link stays
}

}  // namespace keli::format
