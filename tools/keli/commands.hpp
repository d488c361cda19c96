// The keli subcommands; each takes its arguments after the command name and returns the exit status.
#pragma once

#include <string>
#include <vector>

namespace keli::cli {
int cmd_validate(const std::vector<std::string>& args);
int cmd_run(const std::vector<std::string>& args);
int cmd_play(const std::vector<std::string>& args);
int cmd_replay(const std::vector<std::string>& args);
int cmd_render(const std::vector<std::string>& args);
int cmd_test(const std::vector<std::string>& args);
int cmd_match(const std::vector<std::string>& args);
int cmd_describe(const std::vector<std::string>& args);
int cmd_rules(const std::vector<std::string>& args);
int cmd_serve(const std::vector<std::string>& args);
int cmd_bench(const std::vector<std::string>& args);
int cmd_simulate(const std::vector<std::string>& args);
int cmd_fmt(const std::vector<std::string>& args);
int cmd_merge(const std::vector<std::string>& args);
int cmd_report(const std::vector<std::string>& args);
int cmd_step(const std::vector<std::string>& args);
}  // namespace keli::cli
