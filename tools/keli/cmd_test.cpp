// keli test: runs YAML scenario files and prints the summary line CTest and CI read.
#include <fmt/format.h>

#include <filesystem>

#include "cli.hpp"
#include "commands.hpp"
#include "scenario/scenario.hpp"

namespace keli::cli {

int cmd_test(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--quiet", "--engine"});
  use_engine(a, runtime::Engine::Interp);
  namespace fs = std::filesystem;
  std::vector<std::string> paths = a.files;
  if (paths.empty()) paths.push_back("games");
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& p : paths) {
    if (!fs::exists(p, ec)) {
      fmt::print(stderr, "{}: error: no such file or folder [E702]\n", p);
      return kFailed;
    }
    std::string target = p;
    if (fs::path(p).extension() == ".keli") target = fs::path(p).replace_extension(".tests").string();
    if (fs::is_directory(target, ec) || fs::path(p).extension() != ".keli") {
      for (auto& f : scenario::find_files(target)) files.push_back(f);
    } else {
      fmt::print(stderr, "{}: error: no scenario folder '{}' beside it [E702]\n", p, target);
      return kFailed;
    }
  }
  SourceSet src;
  diag::Diagnostics d;
  scenario::Report total;
  for (const auto& f : files) {
    size_t before = d.all().size();
    auto r = scenario::run_file(f, src, d);
    total.passed += r.passed;
    total.failed += r.failed;
    for (size_t i = before; i < d.all().size(); ++i) fmt::print(stderr, "{}", diag::render(src, d.all()[i]));
    if (!a.quiet) fmt::print("{}: {} passed, {} failed\n", f, r.passed, r.failed);
  }
  if (files.empty()) {
    fmt::print(stderr, "no scenario files found\n");
    return kFailed;
  }
  fmt::print("{} passed, {} failed\n", total.passed, total.failed);
  return total.failed == 0 ? kOk : kFailed;
}

}  // namespace keli::cli
