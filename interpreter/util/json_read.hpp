// Reading JSON (traces, saved games, any JSON input) with nlohmann-json: one parse call that
// gives a positioned error instead of an exception, refuses duplicate keys, and typed getters
// whose errors name the field.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace keli::util {

using Json = nlohmann::json;

struct JsonError {
  std::string message;
  uint32_t line = 1, col = 1;  // 1-based, in the text given to parse_json
};

// Parses `text` as one JSON value. False with `err` when it is not JSON (the position is where
// the parser stopped), when an object repeats a key (the position is the repeated key), or when
// arrays and objects nest more than kMaxJsonDepth deep (the position is the first too deep).
bool parse_json(std::string_view text, Json& out, JsonError& err);

// Typed reads of a field; each throws JsonFieldError naming `what` when the value is of the
// wrong kind or out of range.
struct JsonFieldError {
  std::string message;
};
bool json_bool(const Json& v, const std::string& what);
int32_t json_int(const Json& v, const std::string& what);
uint64_t json_uint64(const Json& v, const std::string& what);
std::string json_text(const Json& v, const std::string& what);
std::vector<int32_t> json_ints(const Json& v, const std::string& what);  // a list of numbers
// A single value as text, as it would be written on the command line (`8`, `true`, `teams`).
std::string json_scalar_text(const Json& v, const std::string& what);

}  // namespace keli::util
