// keli describe: what a game file defines (players, board, dice, parameters, rules, state and,
// for a variant, what it changes), as text or JSON. The work is in interpreter/describe/.
#include <fmt/format.h>

#include "cli.hpp"
#include "commands.hpp"
#include "describe/describe.hpp"

namespace keli::cli {

int cmd_describe(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--json"});
  if (a.files.size() != 1) throw Usage{"name one game file"};
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  describe::Description d = describe::describe(*l.file, l.program);
  fmt::print("{}", a.json ? describe::to_json(d) : describe::to_text(d));
  return kOk;
}

}  // namespace keli::cli
