// Strict reading of scenario YAML: every value is read as the kind it must be (a list, a map, a
// single value, a 32-bit number, true or false), and every mistake is a Failure at the node's
// position, so a mistyped file fails instead of silently checking nothing or the wrong thing.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <vector>

namespace keli::scenario {

// What stops a scenario (or, outside one, the file): `unreadable` for a value that is not what
// the format allows (E702), else an expectation that does not hold (E703).
struct Failure {
  YAML::Mark mark;
  std::string message;
  std::string hint;
  bool unreadable = false;
};
[[noreturn]] void fail(const YAML::Node& at, std::string message, std::string hint = {});
[[noreturn]] void unreadable(const YAML::Node& at, std::string message, std::string hint = {});

// Checks the whole document before anything is run: every key of every map is a single value
// and none is given twice (yaml-cpp keeps both and reads the first); a document of more than
// lang::kMaxYamlNodes values, each use of an alias counting its whole value again, is refused, so
// aliases that multiply a document cannot make its readers endless. Each distinct map or list is
// visited once, however many aliases name it.
void check_document(const YAML::Node& root);

// The keys of a map must be among `known` (or, with `extensions`, begin with "x-": a place to
// define YAML anchors, not read); else a Failure ("unknown WHAT key 'x'") with a hint.
void only_keys(const YAML::Node& map, const std::vector<std::string>& known, const std::string& what,
               bool extensions = false);

// `what` names the value in the messages: "'play'", "a move".
void need_map(const YAML::Node& n, const std::string& what);
void need_list(const YAML::Node& n, const std::string& what);
std::string text(const YAML::Node& n, const std::string& what);                // a single value
bool boolean(const YAML::Node& n, const std::string& what);                    // true or false
std::vector<std::string> texts(const YAML::Node& n, const std::string& what);  // a list of single values
// A whole number that a state slot holds (32 bits: lang::kMaxLiteral and its negative, minus one).
int32_t number(const YAML::Node& n, const std::string& what);
// The same for text already taken from a node; false when it is no number or out of range.
bool parse_number(const std::string& text, int32_t& out);
// The faces of a step `roll V1 V2 ...` read at `at`: each a whole number, in die order.
std::vector<int32_t> roll_values(const YAML::Node& at, const std::string& step);

}  // namespace keli::scenario
