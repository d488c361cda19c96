// A Description as one JSON object with the same facts as the text (keys in docs/cli.md).
// Probabilities are given exactly (weight over total) and as a fraction string.
#include <fmt/format.h>

#include "describe/describe.hpp"
#include "util/json.hpp"

namespace keli::describe {

namespace {
using util::json_string;

// A small builder for one object: fields in order, values already encoded.
class Object {
 public:
  Object& field(const std::string& key, const std::string& encoded) {
    out_ += (out_.empty() ? "{" : ",") + json_string(key) + ":" + encoded;
    return *this;
  }
  Object& str(const std::string& key, const std::string& value) { return field(key, json_string(value)); }
  Object& num(const std::string& key, int64_t value) { return field(key, std::to_string(value)); }
  Object& flag(const std::string& key, bool value) { return field(key, value ? "true" : "false"); }
  std::string done() const { return out_.empty() ? "{}" : out_ + "}"; }

 private:
  std::string out_;
};

template <typename T, typename F>
std::string array(const std::vector<T>& v, F encode) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + encode(v[i]);
  return out + "]";
}

std::string strings(const std::vector<std::string>& v) {
  return array(v, [](const std::string& s) { return json_string(s); });
}

std::string actions_json(const Actions& a) {
  Object x;
  x.num("num_distinct_actions", a.num_distinct_actions).num("max_chance_outcomes", a.max_chance_outcomes);
  if (!a.error.empty()) x.str("error", a.error);
  x.field("rules", array(a.rules, [](const ActionRule& r) {
            return Object()
                .str("name", r.name)
                .str("phase", r.phase)
                .num("first", r.first)
                .num("count", r.count)
                .field("params",
                       array(r.params,
                             [](const ActionParam& p) {
                               return Object().str("name", p.name).num("low", p.low).num("count", p.count).done();
                             }))
                .done();
          }));
  return x.done();
}

std::string dice_json(const Dice& x) {
  int64_t id = 0;
  auto throws = array(x.throws, [&](const Throw& t) {
    return Object()
        .num("id", id++)
        .field("values", util::json_array(t.values))
        .num("weight", t.weight)
        .str("probability", fraction(t.weight, x.total_weight))
        .done();
  });
  auto totals = array(x.totals, [&](const std::pair<int64_t, int64_t>& t) {
    return Object()
        .num("total", t.first)
        .num("weight", t.second)
        .str("probability", fraction(t.second, x.total_weight))
        .done();
  });
  return Object()
      .str("name", x.name)
      .field("faces", array(x.faces, [](const std::vector<int32_t>& f) { return util::json_array(f); }))
      .flag("identical", x.identical)
      .flag("ordered", x.ordered)
      .num("total_weight", x.total_weight)
      .field("throws", throws)
      .field("totals", totals)
      .field("thrown_in", strings(x.thrown_in))
      .done();
}

std::string state_json(const Description& d) {
  return Object()
      .field("vars", array(d.vars,
                           [](const Var& v) {
                             return Object()
                                 .str("name", v.name)
                                 .str("type", v.type)
                                 .str("shape", v.shape)
                                 .num("slots", v.slots)
                                 .num("bytes", 4 * static_cast<int64_t>(v.slots))
                                 .done();
                           }))
      .num("fixed_slots", d.fixed_slots)
      .num("slots", d.state_slots)
      .num("bytes", 4 * static_cast<int64_t>(d.state_slots))
      .done();
}

std::string players_json(const Description& d) {
  return Object()
      .num("count", static_cast<int64_t>(d.seats.size()))
      .field("seats", strings(d.seats))
      .field("teams", array(d.teams, strings))
      .num("pieces", d.pieces)
      .field("pieces_per_seat", util::json_array(d.pieces_per_seat))
      .flag("points", d.points)
      .num("points_limit", d.points_limit)
      .done();
}

}  // namespace

std::string to_json(const Description& d) {
  Object o;
  o.str("game", d.game).str("file", d.file).str("rules", "keli rules " + d.file);
  o.field("about", array(d.about, [](const std::pair<std::string, std::string>& a) {
            return Object().str("key", a.first).str("value", a.second).done();
          }));
  o.flag("variant", d.variant);
  if (d.variant) {
    o.str("base_file", d.base_file).str("base_game", d.base_game);
    o.field("changes", array(d.changes, [](const Change& c) {
              Object x;
              x.str("action", c.action).str("kind", c.kind).str("name", c.name);
              if (c.action == "sets") x.str("from", c.from);
              if (!c.to.empty()) x.str("to", c.to);
              return x.done();
            }));
  }
  o.field("players", players_json(d));
  o.field("board", Object()
                       .num("sites", d.sites)
                       .field("shapes", strings(d.shapes))
                       .field("regions", array(d.regions,
                                               [](const Region& r) {
                                                 return Object()
                                                     .str("name", r.name)
                                                     .str("kind", r.track ? "track" : "region")
                                                     .str("dims", r.dims)
                                                     .num("instances", static_cast<int64_t>(r.sizes.size()))
                                                     .field("sizes", util::json_array(r.sizes))
                                                     .flag("marked", r.marked)
                                                     .done();
                                               }))
                       .field("display", strings(d.display))
                       .field("directions", strings(d.directions))
                       .str("coordinates", d.coordinates)
                       .done());
  o.field("dice", array(d.dice, dice_json));
  o.field("params", array(d.params, [](const Param& p) {
            Object x;
            x.str("name", p.name).str("type", p.type).str("default", p.default_value).str("value", p.value);
            x.field("allowed", strings(p.allowed));
            if (!p.range.empty()) x.str("range", p.range);
            return x.str("description", p.doc).flag("safety", p.safety).done();
          }));
  o.field("phases", array(d.phases, [](const Phase& ph) {
            Object x;
            x.str("name", ph.name).str("kind", ph.dice.empty() ? "decision" : "chance");
            if (!ph.dice.empty()) x.str("dice", ph.dice);
            if (!ph.dice_expr.empty()) x.str("dice_expr", ph.dice_expr);
            x.field("rules", array(ph.rules, [](const Rule& r) {
                      return Object().str("name", r.name).field("params", strings(r.params)).done();
                    }));
            if (!ph.otherwise.empty()) x.str("otherwise", ph.otherwise);
            return x.done();
          }));
  o.field("actions", actions_json(d.actions));
  o.field("events", array(d.events, [](const Event& e) {
            return Object()
                .str("name", e.name)
                .field("params", strings(e.formals))
                .field("handlers", strings(e.handlers))
                .done();
          }));
  o.num("setups", d.setups);
  o.field("state", state_json(d));
  o.field("observation", Object()
                             .num("size", d.observation_size)
                             .flag("turns_board", d.observation_turns_board)
                             .field("parts", array(d.observation,
                                                   [](const runtime::ObservationPart& part) {
                                                     return Object()
                                                         .str("name", part.name)
                                                         .num("offset", part.offset)
                                                         .field("shape", util::json_array(part.shape))
                                                         .str("what", part.what)
                                                         .done();
                                                   }))
                             .done());
  o.field("invariants", strings(d.invariants));
  o.num("move_limit", d.move_limit).flag("limit_declared", d.limit_declared);
  o.num("work_budget", d.work_budget).flag("work_declared", d.work_declared).num("history", d.history);
  return o.done() + "\n";
}

}  // namespace keli::describe
