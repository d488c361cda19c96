// Minimal JSON output helpers: string escaping.
#include "util/json.hpp"

#include <fmt/format.h>

namespace keli::util {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", c);
        else
          out += c;
    }
  }
  return out + "\"";
}

}  // namespace keli::util
