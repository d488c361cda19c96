// keli rules: the rulebook of a game in English (text, Markdown or HTML). The work is in
// interpreter/rulebook/; constructs it could only give as code are warned of (errors with --strict).
#include <fmt/format.h>

#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "rulebook/rulebook.hpp"
#include "util/output_file.hpp"

namespace keli::cli {

int cmd_rules(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--format", "--output", "--strict"});
  if (a.files.size() != 1) throw Usage{"name one game file"};
  rulebook::Format format = rulebook::Format::Text;
  if (a.format == "md" || a.format == "markdown") {
    format = rulebook::Format::Markdown;
  } else if (a.format == "html") {
    format = rulebook::Format::Html;
  } else if (!a.format.empty() && a.format != "text") {
    throw Usage{fmt::format("--format takes text, md or html, not '{}'", a.format)};
  }
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  rulebook::Book book = rulebook::build(*l.file, l.program);
  for (const auto& f : book.fallbacks)
    fmt::print(stderr, "{}: {}: this is shown as code in the rulebook: {}\n", f.where, a.strict ? "error" : "warning",
               f.code);
  std::string text = rulebook::print(book, format);
  if (a.output.empty() || a.output == "-") {
    std::cout << text;
  } else if (std::string why = util::write_file(a.output, text, input_files(l, a)); !why.empty()) {
    return output_error(a.output, fmt::format("cannot write the rulebook here: {}", why));
  }
  return a.strict && !book.fallbacks.empty() ? kFailed : kOk;
}

}  // namespace keli::cli
