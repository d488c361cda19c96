// keli validate: every diagnostic of each file, a compile with default parameters, and the
// scenario tests beside the file.
#include <fmt/format.h>

#include <filesystem>

#include "cli.hpp"
#include "commands.hpp"
#include "scenario/scenario.hpp"

namespace keli::cli {

int cmd_validate(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--json", "--no-tests", "--param", "--params"});
  if (a.files.empty()) throw Usage{"name at least one game file"};
  int status = kOk;
  std::string json = "[";
  compile::ParamSettings settings;
  for (const auto& f : a.params_files)
    if (!read_params_file(f, settings)) return kFailed;
  settings.insert(settings.end(), a.params.begin(), a.params.end());
  for (const auto& path : a.files) {
    auto gf = GameFile::open(path);
    diag::Diagnostics extra;
    std::shared_ptr<const compile::Program> prog;
    if (gf->ok()) prog = gf->compile(settings, extra);
    size_t errors = gf->diagnostics().error_count() + extra.error_count();
    size_t warnings = gf->diagnostics().warning_count() + extra.warning_count();
    if (a.json) {
      std::vector<diag::Diagnostic> all = gf->diagnostics().all();
      all.insert(all.end(), extra.all().begin(), extra.all().end());
      std::string one = diag::render_json(gf->sources(), all);
      json += (json.size() > 1 && one.size() > 2 ? "," : "") + one.substr(1, one.size() - 2);
    } else {
      print_diagnostics(gf->sources(), gf->diagnostics(), true);
      for (const auto& x : extra.all()) {
        std::string t = diag::render(gf->sources(), x);
        if (!x.span.valid()) t = path + ": " + t.substr(t.find(' ') + 1);
        fmt::print(stderr, "{}", t);
      }
    }
    scenario::Report rep;
    namespace fs = std::filesystem;
    fs::path tests = fs::path(path).replace_extension(".tests");
    std::error_code ec;
    if (errors == 0 && !a.no_tests && fs::is_directory(tests, ec)) {
      SourceSet src;
      diag::Diagnostics sd;
      for (const auto& f : scenario::find_files(tests.string())) {
        auto r = scenario::run_file(f, src, sd);
        rep.passed += r.passed;
        rep.failed += r.failed;
      }
      if (!a.json) {
        print_diagnostics(src, sd, true);
      } else if (!sd.all().empty()) {
        std::string one = diag::render_json(src, sd.all());
        json += (json.size() > 1 ? "," : "") + one.substr(1, one.size() - 2);
      }
    }
    if (errors > 0 || rep.failed > 0) status = kFailed;
    if (!a.json) {
      std::string tests_text =
          rep.passed + rep.failed > 0 ? fmt::format("; scenarios: {} passed, {} failed", rep.passed, rep.failed) : "";
      fmt::print("{}: {} ({} error{}, {} warning{}{})\n", path, errors == 0 && rep.failed == 0 ? "ok" : "FAILED",
                 errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", tests_text);
    }
  }
  if (a.json) fmt::print("{}]\n", json);
  return status;
}

}  // namespace keli::cli
