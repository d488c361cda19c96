// States as JSON and their comparison with a recorded state.
#include "trace/state_json.hpp"

#include <fmt/format.h>

#include "util/json.hpp"

namespace keli::trace {
using compile::Program;

static std::string value_text(const compile::VarInfo& v, int32_t x) {
  if (v.kind == lang::ValueKind::Bool) return x ? "true" : "false";
  return std::to_string(x);
}

std::string state_json(const Program& p, const runtime::State& s) {
  std::string out = fmt::format("{{\"mover\":{},\"phase\":{},\"places\":[", s[compile::kMover],
                                util::json_string(p.phases[s[compile::kPhase]].name));
  for (int i = 0; i < p.num_players; ++i) out += fmt::format("{}{}", i ? "," : "", s[compile::kPlaces + i]);
  out += "]";
  for (const auto& v : p.vars) {
    out += fmt::format(",{}:", util::json_string(v.name));
    if (v.dims.empty()) {
      out += value_text(v, s[v.base]);
    } else if (v.dims.size() == 1) {
      out += "[";
      for (int i = 0; i < v.dims[0]; ++i) out += (i ? "," : "") + value_text(v, s[v.base + i]);
      out += "]";
    } else {
      out += "[";
      for (int i = 0; i < v.dims[0]; ++i) {
        out += i ? ",[" : "[";
        for (int j = 0; j < v.dims[1]; ++j) out += (j ? "," : "") + value_text(v, s[v.base + i * v.dims[1] + j]);
        out += "]";
      }
      out += "]";
    }
  }
  return out + "}";
}

static int32_t as_int(const YAML::Node& n) {
  std::string t = n.as<std::string>();
  if (t == "true") return 1;
  if (t == "false") return 0;
  return n.as<int32_t>();
}

std::string compare_state(const Program& p, const runtime::State& s, const YAML::Node& rec) {
  if (!rec.IsMap()) return "the state is not an object";
  try {
    if (!rec["mover"] || as_int(rec["mover"]) != s[compile::kMover])
      return fmt::format("mover: recorded {}, replayed {}", rec["mover"] ? rec["mover"].as<std::string>() : "nothing",
                         s[compile::kMover]);
    if (!rec["phase"] || rec["phase"].as<std::string>() != p.phases[s[compile::kPhase]].name)
      return fmt::format("phase: recorded {}, replayed {}", rec["phase"] ? rec["phase"].as<std::string>() : "nothing",
                         p.phases[s[compile::kPhase]].name);
    for (const auto& v : p.vars) {
      YAML::Node r = rec[v.name];
      if (!r) return fmt::format("'{}' is missing", v.name);
      std::vector<int32_t> flat;
      if (r.IsSequence()) {
        for (const auto& x : r) {
          if (x.IsSequence())
            for (const auto& y : x) flat.push_back(as_int(y));
          else
            flat.push_back(as_int(x));
        }
      } else {
        flat.push_back(as_int(r));
      }
      if (static_cast<int>(flat.size()) != v.size())
        return fmt::format("'{}': recorded {} values, the game has {}", v.name, flat.size(), v.size());
      for (int i = 0; i < v.size(); ++i)
        if (flat[i] != s[v.base + i])
          return fmt::format("'{}'[{}]: recorded {}, replayed {}", v.name, i, flat[i], s[v.base + i]);
    }
  } catch (const YAML::Exception& e) {
    return fmt::format("the state cannot be read: {}", e.msg);
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
