// Helpers shared by the tests.
#include "support.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

namespace keli::test {
namespace fs = std::filesystem;

std::string source_path(const std::string& relative) { return (fs::path(KELI_SOURCE_DIR) / relative).string(); }

std::vector<std::string> game_files() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(source_path("games")))
    if (e.path().extension() == ".keli") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::shared_ptr<const compile::Program> compile(const std::string& path, const compile::ParamSettings& settings) {
  auto g = GameFile::open(path);
  std::string shown;
  for (const auto& d : g->diagnostics().all()) shown += diag::render(g->sources(), d);
  INFO(shown);
  REQUIRE(g->ok());
  diag::Diagnostics d;
  auto p = g->compile(settings, d);
  for (const auto& x : d.all()) shown += diag::render(g->sources(), x);
  INFO(shown);
  REQUIRE(p != nullptr);
  return p;
}

static std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Run keli(const std::vector<std::string>& args) { return keli_input(args, ""); }

Run keli_input(const std::vector<std::string>& args, const std::string& input) {
  return keli_input_in(KELI_SOURCE_DIR, args, input);
}

// keli run from `folder`, its stdout captured, or sent to `stdout_path` when that is not empty.
static Run run_keli(const std::string& folder, const std::vector<std::string>& args, const std::string& input,
                    const std::string& stdout_path) {
  static int counter = 0;
  std::string base = (fs::temp_directory_path() / fmt::format("keli_test_{}_{}", getpid(), counter++)).string();
  std::string cmd = fmt::format("cd {} && {}", quote(folder), quote(KELI_BINARY));
  for (const auto& a : args) cmd += " " + quote(a);
  std::string in = "/dev/null";
  if (!input.empty()) {
    in = base + ".in";
    std::ofstream(in) << input;
  }
  cmd += fmt::format(" < {} > {} 2> {}", quote(in), quote(stdout_path.empty() ? base + ".out" : stdout_path),
                     quote(base + ".err"));
  int raw = std::system(cmd.c_str());
  Run r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  if (stdout_path.empty()) r.out = read_text(base + ".out");
  r.err = read_text(base + ".err");
  fs::remove(base + ".out");
  fs::remove(base + ".err");
  if (!input.empty()) fs::remove(base + ".in");
  return r;
}

Run keli_input_in(const std::string& folder, const std::vector<std::string>& args, const std::string& input) {
  return run_keli(folder, args, input, "");
}

Run keli_stdout(const std::string& stdout_path, const std::vector<std::string>& args, const std::string& input) {
  return run_keli(KELI_SOURCE_DIR, args, input, stdout_path);
}

std::vector<std::string> battery_axes(const std::string& game) {
  std::vector<std::string> axes;
  std::string path = fs::path(game).replace_extension(".battery.yaml").string();
  if (!fs::exists(path)) return axes;
  YAML::Node n = YAML::LoadFile(path);
  for (const auto& a : n["axes"]) axes.push_back(a.as<std::string>());
  if (n["axes"] && n["axes"].size() == 0) axes.push_back("");  // `axes: []`: the defaults only
  return axes;
}

int trace_sets(const std::string& game) {
  std::string path = fs::path(game).replace_extension(".battery.yaml").string();
  if (!fs::exists(path)) return 0;
  YAML::Node n = YAML::LoadFile(path);
  int sets = n["trace_sets"] ? n["trace_sets"].as<int>() : 0;
  if (n["trace_sets"] && sets < 1) throw std::runtime_error(path + ": trace_sets must be 1 or more");
  return sets;
}

std::vector<compile::ParamSettings> option_combinations(const GameFile& g, const std::vector<std::string>& axes) {
  std::vector<compile::ParamSettings> out = {{}};
  for (const auto* d : g.checked().params) {
    std::vector<std::string> values;
    bool chosen = axes.empty() || std::find(axes.begin(), axes.end(), d->name) != axes.end();
    if (!chosen) continue;
    if (d->ptype == ast::ParamType::Bool)
      values = {"false", "true"};
    else if (d->ptype == ast::ParamType::Enum)
      values = d->choices;
    else if (!axes.empty())
      for (const auto& a : d->allowed) values.push_back(std::to_string(a->value));
    if (values.empty()) continue;
    std::vector<compile::ParamSettings> next;
    for (const auto& base : out)
      for (const auto& v : values) {
        auto s = base;
        s.emplace_back(d->name, v);
        next.push_back(s);
      }
    out = next;
  }
  return out;
}

std::vector<util::Json> json_lines(const std::string& out) {
  std::vector<util::Json> v;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    util::Json j;
    util::JsonError err;
    INFO(line.substr(0, 200));
    REQUIRE(util::parse_json(line, j, err));
    v.push_back(j);
  }
  return v;
}

}  // namespace keli::test
