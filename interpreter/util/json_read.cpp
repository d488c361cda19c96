// Reading JSON with nlohmann-json: errors as positions and messages, duplicate keys refused.
#include "util/json_read.hpp"

#include <fmt/format.h>

#include <limits>
#include <set>

#include "lang/limits.hpp"

namespace keli::util {

namespace {

// The line and column of byte `offset` (0-based) of `text`.
void position(std::string_view text, size_t offset, JsonError& err) {
  err.line = 1;
  err.col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++err.line;
      err.col = 1;
    } else {
      ++err.col;
    }
  }
}

// nlohmann's messages start "[json.exception.parse_error.101] parse error at line 1, column 5: ";
// the position is reported our way, so only what follows is kept.
std::string plain_message(const std::string& what) {
  size_t at = what.find("column ");
  size_t colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

// Where `key` is written as a key for the second time (a quoted string followed by ':').
size_t second_key_offset(std::string_view text, const std::string& key) {
  std::string quoted = Json(key).dump();
  int seen = 0;
  for (size_t at = text.find(quoted); at != std::string_view::npos; at = text.find(quoted, at + 1)) {
    size_t after = text.find_first_not_of(" \t\r\n", at + quoted.size());
    if (after != std::string_view::npos && text[after] == ':' && ++seen == 2) return at;
  }
  return 0;
}

// Thrown by the parser's callback to stop at a value nested too deep.
struct TooDeep {};

// The offset of the first '[' or '{' that opens a value kMaxJsonDepth deep (strings skipped).
size_t too_deep_offset(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (depth++ == lang::kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return 0;
}

}  // namespace

bool parse_json(std::string_view text, Json& out, JsonError& err) {
  // The parser's callback sees every key as it is read: one set of keys per open object.
  std::vector<std::set<std::string>> open;
  std::string duplicate;
  auto watch = [&](int depth, Json::parse_event_t event, Json& parsed) {
    // Deeper values are refused while parsing: copying, comparing or writing them out recurses.
    if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
        depth >= lang::kMaxJsonDepth)
      throw TooDeep{};
    if (event == Json::parse_event_t::object_start) open.emplace_back();
    if (event == Json::parse_event_t::object_end && !open.empty()) open.pop_back();
    if (event == Json::parse_event_t::key && !open.empty() && !open.back().insert(parsed.get<std::string>()).second &&
        duplicate.empty())
      duplicate = parsed.get<std::string>();
    return true;
  };
  try {
    out = Json::parse(text.begin(), text.end(), watch);
  } catch (const TooDeep&) {
    err.message = fmt::format("arrays and objects nest more than {} deep (kMaxJsonDepth)", lang::kMaxJsonDepth);
    position(text, too_deep_offset(text), err);
    return false;
  } catch (const Json::parse_error& e) {
    err.message = plain_message(e.what());
    position(text, e.byte > 0 ? e.byte - 1 : 0, err);
    return false;
  } catch (const Json::exception& e) {  // e.g. out_of_range: a number too big for any type
    std::string what = e.what();
    err.message = what.substr(what.find(']') == std::string::npos ? 0 : what.find(']') + 2);
    return false;
  }
  if (!duplicate.empty()) {
    err.message = fmt::format("the key \"{}\" is given twice", duplicate);
    position(text, second_key_offset(text, duplicate), err);
    return false;
  }
  return true;
}

namespace {
// A value as an error message shows it: its JSON text, cut after kShownJson characters.
constexpr size_t kShownJson = 80;
std::string brief(const Json& v) {
  std::string t = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  return t.size() <= kShownJson ? t : t.substr(0, kShownJson) + "...";
}
}  // namespace

bool json_bool(const Json& v, const std::string& what) {
  if (v.is_boolean()) return v.get<bool>();
  throw JsonFieldError{fmt::format("{} must be true or false, not {}", what, brief(v))};
}

int32_t json_int(const Json& v, const std::string& what) {
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max())
                               : v.get<int64_t>() >= std::numeric_limits<int32_t>::min() &&
                                     v.get<int64_t>() <= std::numeric_limits<int32_t>::max())
      return static_cast<int32_t>(v.get<int64_t>());
    throw JsonFieldError{fmt::format("{} is out of range: {}", what, brief(v))};
  }
  throw JsonFieldError{fmt::format("{} must be a whole number, not {}", what, brief(v))};
}

uint64_t json_uint64(const Json& v, const std::string& what) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  throw JsonFieldError{fmt::format("{} must be a whole number from 0, not {}", what, brief(v))};
}

std::string json_text(const Json& v, const std::string& what) {
  if (v.is_string()) return v.get<std::string>();
  throw JsonFieldError{fmt::format("{} must be a string, not {}", what, brief(v))};
}

std::vector<int32_t> json_ints(const Json& v, const std::string& what) {
  if (!v.is_array()) throw JsonFieldError{fmt::format("{} must be a list of numbers, not {}", what, brief(v))};
  std::vector<int32_t> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) out.push_back(json_int(v[i], fmt::format("{}[{}]", what, i)));
  return out;
}

std::string json_scalar_text(const Json& v, const std::string& what) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean() || v.is_number_integer()) return v.dump();
  throw JsonFieldError{
      fmt::format("{} must be a single value (a number, true/false or a name), not {}", what, brief(v))};
}

}  // namespace keli::util
