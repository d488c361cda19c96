// Builds a Description: declarations come from the checked AST (what was written: types, domains,
// descriptions), sizes and values from the program compiled with the chosen parameters (what is
// in effect: sites, track lengths, dice outcomes, the state layout).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "describe/describe.hpp"
#include "runtime/actions.hpp"
#include "runtime/game.hpp"

namespace keli::describe {
using ast::DeclKind;

namespace {

std::string dims_text(const ast::Decl& d) {
  std::string out;
  for (const auto& dim : d.dims) {
    if (!out.empty()) out += ' ';
    out += "per " + (dim.type.empty() ? expr_text(*dim.lo) + ".." + expr_text(*dim.hi) : dim.type);
  }
  return out;
}

Param param_of(const ast::Decl& d, const compile::Program& p) {
  Param out;
  out.name = d.name;
  out.doc = d.doc;
  out.safety = d.for_safety;
  out.default_value = d.value ? expr_text(*d.value) : "";
  for (const auto& [name, value] : p.params)
    if (name == d.name) out.value = value;
  switch (d.ptype) {
    case ast::ParamType::Bool:
      out.type = "bool";
      out.allowed = {"true", "false"};
      break;
    case ast::ParamType::Enum:
      out.type = "choice";
      out.allowed = d.choices;
      break;
    case ast::ParamType::Int:
      out.type = "int";
      if (d.lo) {
        out.range = expr_text(*d.lo) + ".." + expr_text(*d.hi);
        out.type = "int in " + out.range;
      }
      for (const auto& a : d.allowed) out.allowed.push_back(expr_text(*a));
      if (!d.allowed.empty()) out.type = fmt::format("int in {{{}}}", fmt::join(out.allowed, ", "));
      break;
  }
  return out;
}

// Shapes called by the board: `board NAME(...)`, or calls anywhere in its block.
void shape_calls(const check::Checked& ck, const ast::Block& b, std::vector<std::string>& out) {
  for (const auto& s : b) {
    if (s->kind == ast::StmtKind::Call) {
      int sym = ck.lookup(s->name);
      if (sym >= 0 && ck.syms[sym].kind == check::SymKind::Shape &&
          std::find(out.begin(), out.end(), s->name) == out.end())
        out.push_back(s->name);
    }
    for (const auto& inner : s->blocks) shape_calls(ck, inner, out);
  }
}

std::vector<Dice> dice_of(const compile::Program& p) {
  std::vector<Dice> out;
  for (size_t i = 0; i < p.dice.size(); ++i) {
    const compile::DiceSet& ds = p.dice[i];
    Dice d;
    d.name = ds.name;
    d.faces = ds.faces;
    d.identical = ds.identical;
    d.ordered = ds.ordered;
    d.total_weight = ds.total;
    std::map<int64_t, int64_t> totals;
    for (const auto& o : ds.outcomes) {
      d.throws.push_back({o.values, o.weight});
      int64_t sum = 0;
      for (int32_t v : o.values) sum += v;
      totals[sum] += o.weight;
    }
    d.totals.assign(totals.begin(), totals.end());
    for (const auto& ph : p.phases)
      if (ph.dice == static_cast<int>(i)) d.thrown_in.push_back(ph.name);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Phase> phases_of(const check::Checked& ck, const compile::Program& p) {
  std::vector<Phase> out;
  for (size_t i = 0; i < ck.phases.size() && i < p.phases.size(); ++i) {
    const ast::Decl& d = *ck.phases[i];
    Phase ph;
    ph.name = d.name;
    if (p.phases[i].dice >= 0) ph.dice = p.dice[p.phases[i].dice].name;
    if (d.value && d.value->kind != ast::ExprKind::Name) ph.dice_expr = expr_text(*d.value);
    for (const auto& m : d.moves) {
      if (m.is_otherwise) {
        ph.otherwise = m.name;
        continue;
      }
      Rule r;
      r.name = m.name;
      for (const auto& mp : m.params)
        r.params.push_back(mp.name + " in " + expr_text(*mp.domain) +
                           (mp.filter ? " where " + expr_text(*mp.filter) : "") +
                           (mp.distinct ? " distinct by " + expr_text(*mp.distinct) : ""));
      ph.rules.push_back(std::move(r));
    }
    out.push_back(std::move(ph));
  }
  return out;
}

std::vector<Event> events_of(const check::Checked& ck) {
  std::vector<Event> out;
  for (const auto* e : ck.events) {
    Event ev;
    ev.name = e->name;
    for (const auto& f : e->formals) ev.formals.push_back(f.name + ": " + f.type);
    for (const auto* h : ck.handlers) {
      if (h->name != e->name) continue;
      std::string formals;
      for (size_t i = 0; i < h->formals.size(); ++i) formals += (i ? ", " : "") + h->formals[i].name;
      ev.handlers.push_back(
          fmt::format("on {}({}){}", h->name, formals, h->guard ? " when " + expr_text(*h->guard) : ""));
    }
    out.push_back(std::move(ev));
  }
  return out;
}

// What the board shows: of two display lines of one form the last read wins.
std::vector<std::string> display_of(const check::Checked& ck, const compile::Program& p) {
  std::map<lang::Display, std::string> by_form;
  for (const auto* d : ck.displays) {
    const lang::Display form = check::display_form(ck, *d);
    std::string& text = by_form[form];
    if (form == lang::Display::Pieces) {
      text = fmt::format("pieces on their cells: {} gives a piece's cell, {} its owner (seat initials)", d->names[0],
                         d->names[1]);
    } else if (form == lang::Display::Values && p.display >= 0 && p.vars[p.display].name == d->name) {
      const compile::VarInfo& v = p.vars[p.display];
      text = fmt::format("{} in each cell, as {}{}", d->name, p.coordinates ? "" : "LABEL:",
                         v.kind == lang::ValueKind::Player ? "the seat's initial" : "VALUE");
      if (v.or_none) text += " ('.' for none)";
    } else if (form == lang::Display::Marks) {
      text = fmt::format("empty cells of {} marked x", d->name);
    } else {
      text = fmt::format("{}: {}", d->name, lang::display_info(form).shows);
    }
  }
  std::vector<std::string> out;
  for (auto& [form, text] : by_form) out.push_back(text);
  return out;
}

// Teams, pieces per seat and the observation tensor's layout need the start position: a game says who owns a piece with
// a function or table (its `display pieces ... by OWNER`), and who plays with whom with `def team(p: player)`: seats
// with equal values are partners.
void seats_at_start(const std::shared_ptr<const compile::Program>& prog, Description& d) {
  const compile::Program& p = *prog;
  int team = -1;
  for (size_t i = 0; i < p.callables.size(); ++i)
    if (p.callables[i].name == "team" && p.callables[i].params.size() == 1) team = static_cast<int>(i);
  try {
    runtime::Game g(prog);
    const std::vector<int> owners = g.owners_at_start();  // the setup run once for both uses
    runtime::Observer seen(p, owners);
    d.observation = seen.parts();
    d.observation_size = seen.size();
    d.observation_turns_board = seen.rotates_board();
    if (p.piece_owner >= 0) {
      std::vector<int> count(p.num_players, 0);
      bool all_owned = true;
      for (int owner : owners) {
        if (owner >= 0)
          ++count[owner];
        else
          all_owned = false;
      }
      if (all_owned) d.pieces_per_seat = count;
    }
    if (team >= 0) {
      const runtime::State s = g.initial();
      std::map<int64_t, std::vector<std::string>> groups;
      for (int64_t seat = 0; seat < p.num_players; ++seat)
        groups[g.call(s, team, &seat, 1)].push_back(p.seat_names[seat]);
      if (static_cast<int>(groups.size()) < p.num_players)
        for (auto& [value, seats] : groups) d.teams.push_back(seats);
    }
  } catch (const diag::Error&) {
    // A setup or function that fails here fails in play too; describe only leaves the facts out.
  }
}

}  // namespace

static Actions actions_of(const compile::Program& p) {
  Actions a;
  try {
    runtime::ActionSpace space(p);
    a.num_distinct_actions = space.num_distinct_actions();
    a.max_chance_outcomes = space.max_chance_outcomes();
    for (size_t r = 0; r < p.rules.size(); ++r) {
      const auto& rule = p.rules[r];
      ActionRule out{rule.name,
                     p.phases[rule.phase].name,
                     space.rule(static_cast<int>(r)).first,
                     space.rule(static_cast<int>(r)).count,
                     {}};
      for (const auto& prm : rule.params) out.params.push_back({prm.name, prm.id_low, prm.id_count});
      a.rules.push_back(std::move(out));
    }
  } catch (const diag::Error& e) {
    a.error = e.message;
  }
  return a;
}

Description describe(const GameFile& g, const std::shared_ptr<const compile::Program>& prog) {
  const check::Checked& ck = g.checked();
  const compile::Program& p = *prog;
  Description d;
  d.game = p.game_name;
  d.file = g.path();
  d.about = p.about;
  d.base_file = ck.base_file;
  d.variant = !ck.base_file.empty();
  if (d.variant) d.changes = variant_changes(g.path(), d.base_game);

  d.seats = p.seat_names;
  d.pieces = p.num_pieces;
  seats_at_start(prog, d);

  d.sites = p.num_sites;
  for (size_t i = 0; i < p.direction_names.size(); ++i)
    d.directions.push_back(
        fmt::format("{} ({}, {})", p.direction_names[i], p.direction_steps[i].first, p.direction_steps[i].second));
  if (ck.coordinates)
    d.coordinates = fmt::format("coordinates from {}{}", ck.coordinates->names[0],
                                ck.coordinates->names.size() > 1 ? " without " + ck.coordinates->names[1] : "");
  if (ck.board->value) d.shapes.push_back(expr_text(*ck.board->value->kids[0]));
  shape_calls(ck, ck.board->body, d.shapes);
  size_t table = 0;
  for (const auto* list : {&ck.regions, &ck.tracks})
    for (const auto* r : *list) {
      if (table >= p.region_tables.size()) break;
      const compile::VarInfo& t = p.region_tables[table++];
      Region out;
      out.name = r->name;
      out.track = r->kind == DeclKind::Track;
      out.dims = dims_text(*r);
      for (int k = 0; k < t.size(); ++k) out.sizes.push_back(static_cast<int>(p.regions.at(t.base + k).size()));
      out.marked = t.dims.empty() && p.display_marks == t.base;
      d.regions.push_back(std::move(out));
    }
  d.display = display_of(ck, p);

  d.dice = dice_of(p);
  for (const auto* x : ck.params) d.params.push_back(param_of(*x, p));

  d.phases = phases_of(ck, p);
  d.actions = actions_of(p);
  d.events = events_of(ck);
  d.setups = static_cast<int>(ck.setups.size());
  for (size_t i = 0; i < ck.vars.size() && i < p.vars.size(); ++i)
    d.vars.push_back({ck.vars[i]->name, ck.vars[i]->type, dims_text(*ck.vars[i]), p.vars[i].size()});
  d.fixed_slots = p.first_var_slot();
  d.points = p.points_base >= 0;
  d.points_limit = p.points_limit;
  d.state_slots = p.visible_size;  // what the rules declare; kept facts are the engine's
  for (const compile::InvariantInfo& inv : p.invariants) d.invariants.push_back(inv.text);
  d.move_limit = p.move_limit;
  auto declared = [&](lang::GameLimit which) {
    return std::any_of(ck.limits.begin(), ck.limits.end(),
                       [&](const ast::Decl* l) { return lang::find_game_limit(l->name) == static_cast<int>(which); });
  };
  d.limit_declared = declared(lang::GameLimit::moves);
  d.work_budget = p.work_budget;
  d.work_declared = declared(lang::GameLimit::work);
  if (p.history.key >= 0) d.history = p.history.capacity;
  return d;
}

}  // namespace keli::describe
