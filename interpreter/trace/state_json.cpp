// States as JSON, their checks, and their comparison with a recorded state.
#include "trace/state_json.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lang/limits.hpp"
#include "util/json.hpp"

namespace keli::trace {
using compile::Program;

static std::string value_text(const compile::VarInfo& v, int32_t x) {
  if (v.kind == lang::ValueKind::Bool) return x ? "true" : "false";
  if (v.or_none && x == lang::kNoneValue) return "null";  // `none` (docs/trace-format.md)
  return std::to_string(x);
}

// The entries of v from slot `at` along dimension `depth` on: a value, or one list per dimension.
static void table_json(const compile::VarInfo& v, const runtime::State& s, size_t depth, int at, std::string& out) {
  if (depth == v.dims.size()) {
    out += value_text(v, s[at]);
    return;
  }
  int stride = 1;
  for (size_t d = depth + 1; d < v.dims.size(); ++d) stride *= v.dims[d];
  out += "[";
  for (int i = 0; i < v.dims[depth]; ++i) {
    if (i) out += ",";
    table_json(v, s, depth + 1, at + i * stride, out);
  }
  out += "]";
}

// `count` slots from `from` on, as a JSON list of numbers.
static std::string slots_json(const runtime::State& s, int from, int count) {
  return fmt::format("[{}]", fmt::join(s.begin() + from, s.begin() + from + count, ","));
}

std::string state_json(const Program& p, const runtime::State& s) {
  std::string out =
      fmt::format("{{\"mover\":{},\"phase\":{},\"places\":{}", s[compile::kMover],
                  util::json_string(p.phases[s[compile::kPhase]].name), slots_json(s, compile::kPlaces, p.num_players));
  // Only a game that scores points has them, so others' states read as before.
  if (p.points_base >= 0) out += ",\"points\":" + slots_json(s, p.points_base, p.num_players);
  for (const auto& v : p.vars) {
    if (!recorded(v)) continue;
    out += fmt::format(",{}:", util::json_string(v.name));
    table_json(v, s, 0, v.base, out);
  }
  return out + "}";
}

// Every variable: the counts the engine keeps (compile/facts.hpp) live after the variables, in no
// VarInfo, so they are never written, checked or compared.
bool recorded(const compile::VarInfo&) { return true; }

namespace {

constexpr uint64_t kCheckMul = 0x9e3779b97f4a7c15ULL;

inline void check_mix(uint64_t& h, uint64_t x) {
  h = (h ^ x) * kCheckMul;
  h ^= h >> 29;
}

}  // namespace

std::string state_check(const Program& p, const runtime::State& s) {
  // A word-wise multiply-xorshift hash in four lanes (value i goes to lane i mod 4): four chains
  // the processor runs side by side, cheap enough for every step of a 16-player game. The values
  // are gathered first so that the lanes stay in registers.
  thread_local std::vector<int32_t> gathered;
  std::vector<int32_t>& values = gathered;
  values.clear();
  values.push_back(s[compile::kMover]);
  values.push_back(s[compile::kPhase]);
  auto slots = [&](int from, int count) { values.insert(values.end(), s.begin() + from, s.begin() + from + count); };
  slots(compile::kPlaces, p.num_players);
  if (p.points_base >= 0) slots(p.points_base, p.num_players);
  for (const auto& v : p.vars)
    if (recorded(v)) slots(v.base, v.size());
  uint64_t h0 = 0xcbf29ce484222325ULL, h1 = h0 + 1, h2 = h0 + 2, h3 = h0 + 3;
  size_t n = values.size(), i = 0;
  for (; i + 4 <= n; i += 4) {
    check_mix(h0, static_cast<uint32_t>(values[i]));
    check_mix(h1, static_cast<uint32_t>(values[i + 1]));
    check_mix(h2, static_cast<uint32_t>(values[i + 2]));
    check_mix(h3, static_cast<uint32_t>(values[i + 3]));
  }
  uint64_t* lanes[4] = {&h0, &h1, &h2, &h3};
  for (; i < n; ++i) check_mix(*lanes[i & 3], static_cast<uint32_t>(values[i]));
  check_mix(h0, h1);
  check_mix(h0, h2);
  check_mix(h0, h3);
  return fmt::format("{:016x}", h0);
}

namespace {

// A recorded value as a number: booleans as 0 and 1.
bool as_int(const util::Json& n, int32_t& out) {
  if (n.is_null()) {  // `none`
    out = lang::kNoneValue;
    return true;
  }
  if (n.is_boolean()) {
    out = n.get<bool>() ? 1 : 0;
    return true;
  }
  if (!n.is_number_integer()) return false;
  try {
    out = util::json_int(n, "");
    return true;
  } catch (const util::JsonFieldError&) {
    return false;
  }
}

// The entries of a recorded variable, flattened (first index outside); false if one is not a value
// or the lists are nested deeper than a table's dimensions can be.
bool flatten(const util::Json& r, std::vector<int32_t>& flat, int depth = 0) {
  if (!r.is_array()) {
    int32_t v = 0;
    if (!as_int(r, v)) return false;
    flat.push_back(v);
    return true;
  }
  if (depth >= lang::kMaxTableDims) return false;
  for (const auto& e : r)
    if (!flatten(e, flat, depth + 1)) return false;
  return true;
}

}  // namespace

std::string compare_state(const Program& p, const runtime::State& s, const util::Json& rec) {
  if (!rec.is_object()) return "the state is not an object";
  int32_t mover = 0;
  if (!rec.contains("mover") || !as_int(rec["mover"], mover) || mover != s[compile::kMover])
    return fmt::format("mover: recorded {}, replayed {}", rec.contains("mover") ? rec["mover"].dump() : "nothing",
                       s[compile::kMover]);
  const std::string& phase = p.phases[s[compile::kPhase]].name;
  if (!rec.contains("phase") || !rec["phase"].is_string() || rec["phase"].get<std::string>() != phase)
    return fmt::format("phase: recorded {}, replayed {}", rec.contains("phase") ? rec["phase"].dump() : "nothing",
                       phase);
  if (p.points_base >= 0) {
    std::vector<int32_t> flat;
    if (!rec.contains("points") || !flatten(rec["points"], flat)) return "'points' is missing";
    std::vector<int32_t> replayed(s.begin() + p.points_base, s.begin() + p.points_base + p.num_players);
    if (flat != replayed)
      return fmt::format("points: recorded {}, replayed {}", rec["points"].dump(),
                         slots_json(s, p.points_base, p.num_players));
  }
  for (const auto& v : p.vars) {
    if (!recorded(v)) continue;
    if (!rec.contains(v.name)) return fmt::format("'{}' is missing", v.name);
    std::vector<int32_t> flat;
    if (!flatten(rec[v.name], flat))
      return fmt::format("'{}' holds something that is not a number or true/false", v.name);
    if (static_cast<int>(flat.size()) != v.size())
      return fmt::format("'{}': recorded {} values, the game has {}", v.name, flat.size(), v.size());
    for (int i = 0; i < v.size(); ++i)
      if (flat[i] != s[v.base + i])
        return fmt::format("'{}'[{}]: recorded {}, replayed {}", v.name, i, flat[i], s[v.base + i]);
  }
  return {};
}

std::string params_json(const Program& p) {
  std::string out = "{";
  for (size_t i = 0; i < p.params.size(); ++i) {
    const auto& [name, value] = p.params[i];
    bool bare = value == "true" || value == "false" ||
                (!value.empty() && value.find_first_not_of("-0123456789") == std::string::npos);
    out += fmt::format("{}{}:{}", i ? "," : "", util::json_string(name), bare ? value : util::json_string(value));
  }
  return out + "}";
}

}  // namespace keli::trace
