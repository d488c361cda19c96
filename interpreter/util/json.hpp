// Minimal JSON output helpers (strings, arrays of ints); reading JSON is util/json_read.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace keli::util {

std::string json_string(std::string_view s);
template <typename T>
std::string json_array(const std::vector<T>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(v[i]);
  }
  return out + "]";
}

}  // namespace keli::util
