// Strict readers of scenario YAML values, and the check of a whole document for keys given twice
// (see yaml_read.hpp). Every failure carries the node's mark, so it is reported as FILE:LINE:COL.
#include "scenario/yaml_read.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "diag/diagnostics.hpp"
#include "lang/limits.hpp"

namespace keli::scenario {

void fail(const YAML::Node& at, std::string message, std::string hint) {
  throw Failure{at.Mark(), std::move(message), std::move(hint), false};
}

void unreadable(const YAML::Node& at, std::string message, std::string hint) {
  throw Failure{at.Mark(), std::move(message), std::move(hint), true};
}

void check_document(const YAML::Node& root) {
  // An explicit stack, not recursion: a deeply nested document cannot overflow ours. Each value is
  // counted when it is pushed, not when it is visited, so the stack never holds more than
  // kMaxYamlNodes values: an anchor used inside itself (a cycle) or a list of many aliases to a wide
  // list is refused after at most that many, in bounded memory.
  std::vector<YAML::Node> todo;
  int64_t counted = 0;
  auto push = [&](const YAML::Node& n) {
    if (++counted > lang::kMaxYamlNodes)
      unreadable(root,
                 fmt::format("this file has more than {} values (counting each use of an alias)", lang::kMaxYamlNodes),
                 "each use of an alias counts its whole value again; an anchor used inside its own value never ends");
    todo.push_back(n);
  };
  push(root);
  while (!todo.empty()) {
    YAML::Node n = todo.back();
    todo.pop_back();
    if (n.IsSequence()) {
      for (const auto& x : n) push(x);
    } else if (n.IsMap()) {
      std::map<std::string, YAML::Mark> seen;
      for (const auto& kv : n) {
        if (!kv.first.IsScalar()) unreadable(kv.first, "a key must be a single name, not a list or a map");
        auto [it, fresh] = seen.emplace(kv.first.Scalar(), kv.first.Mark());
        if (!fresh)
          unreadable(
              kv.first,
              fmt::format("the key '{}' is given twice (first on line {})", kv.first.Scalar(), it->second.line + 1),
              "YAML keeps one value per key: remove or rename one of them");
        push(kv.second);
      }
    }
  }
}

void only_keys(const YAML::Node& map, const std::vector<std::string>& known, const std::string& what, bool extensions) {
  for (const auto& kv : map) {
    const std::string& key = kv.first.Scalar();
    if (extensions && key.rfind("x-", 0) == 0) continue;
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string hint = diag::suggest(key, known);
      if (extensions && hint.empty()) hint = "a key that only holds YAML anchors begins with 'x-'";
      unreadable(kv.first, fmt::format("unknown {} key '{}'", what, key), hint);
    }
  }
}

namespace {
const char* kind_of(const YAML::Node& n) {
  return n.IsMap() ? "a map" : n.IsSequence() ? "a list" : n.IsNull() ? "nothing" : "a single value";
}
}  // namespace

void need_map(const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) unreadable(n, fmt::format("{} must be a map of names to values, not {}", what, kind_of(n)));
}

void need_list(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence())
    unreadable(n, fmt::format("{} must be a list, not {}", what, kind_of(n)),
               n.IsScalar() ? fmt::format("write [{}]", n.Scalar()) : "");
}

std::string text(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) unreadable(n, fmt::format("{} must be a single value, not {}", what, kind_of(n)));
  return n.Scalar();
}

bool boolean(const YAML::Node& n, const std::string& what) {
  std::string t = text(n, what);
  if (t == "true") return true;
  if (t == "false") return false;
  unreadable(n, fmt::format("{} is true or false, not '{}'", what, t));
}

std::vector<std::string> texts(const YAML::Node& n, const std::string& what) {
  need_list(n, what);
  std::vector<std::string> out;
  for (const auto& x : n) out.push_back(text(x, fmt::format("each entry of {}", what)));
  return out;
}

bool parse_number(const std::string& t, int32_t& out) {
  size_t i = t.size() > 1 && (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (i == t.size()) return false;
  int64_t v = 0;
  for (size_t k = i; k < t.size(); ++k) {
    if (t[k] < '0' || t[k] > '9') return false;
    v = v * 10 + (t[k] - '0');
    if (v > lang::kMaxLiteral + 1) return false;  // no further digits can bring it back in range
  }
  if (t[0] == '-') v = -v;
  if (v > lang::kMaxLiteral || v < -lang::kMaxLiteral - 1) return false;
  out = static_cast<int32_t>(v);
  return true;
}

int32_t number(const YAML::Node& n, const std::string& what) {
  std::string t = text(n, what);
  int32_t v = 0;
  if (!parse_number(t, v))
    unreadable(n, fmt::format("{} is a whole number from {} to {}, not '{}'", what, -lang::kMaxLiteral - 1,
                              lang::kMaxLiteral, t));
  return v;
}

}  // namespace keli::scenario
