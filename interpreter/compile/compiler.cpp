// The compiler: fixes parameter values, builds the board by running its code once, lays out the
// state, compiles every body to nodes and precomputes the tables play needs (region indexes,
// dice outcomes with exact probabilities).
#include "compile/compiler.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "compile/compiler_impl.hpp"
#include "lang/search_settings.hpp"
#include "compile/optimize.hpp"
#include "lang/arith.hpp"
#include "lang/builtins.hpp"
#include "lang/limits.hpp"

namespace keli::compile {
using ast::ExprKind;
using check::SymKind;
using diag::Code;
using lang::kDefaultMoveLimit;

std::shared_ptr<Program> Compiler::run(const ParamSettings& settings) {
  auto out = std::make_shared<Program>();
  out->game_name = ck.game_name;
  out->file = src.file(ck.modules[ck.main].file).path;
  out->about = ck.about;
  if (!set_params(settings, *out)) return nullptr;
  if (!count_players(*out)) return nullptr;
  count_pieces(*out);
  set_limits(*out);  // before the board: `limit work` bounds building it too
  build_dice(*out);  // before the board and the state: `most_dice` may size their tables
  name_directions(*out);
  if (diags.has_errors() || !build_board(*out)) return nullptr;
  build_geometry(*out);
  if (diags.has_errors()) return nullptr;
  lay_out_state(*out);

  CodeGen gen(*out, ck, values);
  gen.collection_domain = [this, &out](const ast::Stmt& s) { return collection_domain(s, *out, false); };
  gen.reserve_slots = [this](int64_t slots, Span at, const std::string& what) { reserve_slots(slots, at, what); };
  for (size_t i = 0; i < ck.phases.size(); ++i) gen.phase_ids[ck.phases[i]->sym] = static_cast<int>(i);
  for (size_t i = 0; i < ck.events.size(); ++i) gen.event_ids[ck.events[i]->sym] = static_cast<int>(i);
  compile_handlers(gen, *out);
  for (auto* s : ck.setups) {
    int c = gen.new_callable("setup", s->frame);
    out->callables[c].body = gen.block(s->body, out->callables[c].frame);
    out->setups.push_back(c);
  }
  for (auto* ph : ck.phases) compile_phase(gen, *out, *ph);
  for (auto* inv : ck.invariants) {
    int c = gen.new_callable("invariant", inv->frame);
    out->callables[c].body = gen.expr(*inv->value, out->callables[c].frame);
    out->callables[c].is_expr = true;
    out->invariants.push_back({inv->doc, c, inv->span});
  }
  for (auto* d : ck.displays) compile_display(gen, *out, *d);
  out->evaluate = agent_hook(gen, "evaluate");
  out->team = agent_hook(gen, "team");
  search_settings(gen, *out);
  compile_facts(gen, *out);
  lay_out_history(*out);
  if (diags.has_errors()) return nullptr;
  warn_effects(*out);
  build_access_tables(*out);
  if (optimized) optimize(*out);
  return out;
}

// The number of players and the seats' names; false when the game cannot be played.
bool Compiler::count_players(Program& out) {
  int64_t players = need_constant(*ck.players->value, "the number of players");
  if (diags.has_errors()) return false;
  if (players < 1 || players > lang::kMaxPlayers) {
    diags.report(Code::eval_error, ck.players->value->span,
                 fmt::format("{} players: a game has 1 to {}", players, lang::kMaxPlayers));
    return false;
  }
  out.num_players = static_cast<int>(players);
  for (int i = 0; i < players; ++i)
    out.seat_names.push_back(i < static_cast<int>(ck.players->names.size()) ? ck.players->names[i]
                                                                            : fmt::format("P{}", i + 1));
  if (!ck.players->names.empty() && static_cast<int64_t>(ck.players->names.size()) != players)
    diags.report(Code::eval_error, ck.players->name_spans[0],
                 fmt::format("{} seat names for {} players", ck.players->names.size(), players));
  return true;
}

void Compiler::count_pieces(Program& out) {
  if (!ck.pieces) return;
  int64_t n = need_constant(*ck.pieces->value, "the number of pieces");
  if (n < 0 || n > lang::kMaxPieces)
    diags.report(Code::eval_error, ck.pieces->value->span, fmt::format("a game has 0 to {} pieces", lang::kMaxPieces));
  else
    out.num_pieces = static_cast<int>(n);
}

// State: the fixed slots, then every variable, with its initial value.
void Compiler::lay_out_state(Program& out) {
  if (ck.scores_points) out.points_base = kPlaces + out.num_players;
  int base = out.first_var_slot();
  for (auto* d : ck.vars) {
    out.vars.push_back(layout(*d, base, out, false));
    base += out.vars.back().size();
  }
  out.state_size = base;
  out.visible_size = base;
  out.initial.assign(base, 0);
  out.initial[kNextPlace] = 1;
  for (size_t i = 0; i < ck.vars.size(); ++i) {
    const VarInfo& t = out.vars[i];
    auto entries = initial_entries(*ck.vars[i], t, false);
    std::transform(entries.begin(), entries.end(), out.initial.begin() + t.base,
                   [](int64_t v) { return static_cast<int32_t>(v); });  // stored_constant kept each in range
  }
}

// Each handler a callable of its formals, listed under its event.
void Compiler::compile_handlers(CodeGen& gen, Program& out) {
  out.handlers.assign(ck.events.size(), {});
  for (auto* h : ck.handlers) {
    int c = gen.new_callable("on " + h->name, h->frame);
    int fb = out.callables[c].frame;
    for (size_t i = 0; i < h->formals.size(); ++i) out.callables[c].params.push_back(fb + static_cast<int>(i));
    Handler hd;
    hd.callable = c;
    hd.guard = h->guard ? gen.expr(*h->guard, fb) : -1;
    out.callables[c].body = gen.block(h->body, fb);
    if (gen.event_ids.count(h->sym)) out.handlers[gen.event_ids[h->sym]].push_back(hd);
  }
}

// A phase: its dice and chance body, then its rules (the `otherwise` rule kept apart).
void Compiler::compile_phase(CodeGen& gen, Program& out, const ast::Decl& ph) {
  PhaseInfo pi;
  pi.name = ph.name;
  pi.span = ph.name_span;
  if (ph.value) {
    pi.dice = dice_choice(*ph.value);
    int c = gen.new_callable("phase " + ph.name, ph.frame);
    pi.chance_body = gen.block(ph.body, out.callables[c].frame);
  }
  for (auto& m : ph.moves) {
    int id = static_cast<int>(out.rules.size());
    out.rules.push_back(compile_rule(gen, out, m));
    if (m.is_otherwise)
      pi.otherwise = id;
    else
      pi.rules.push_back(id);
  }
  out.phases.push_back(std::move(pi));
}

Rule Compiler::compile_rule(CodeGen& gen, Program& out, const ast::Move& m) {
  Rule r;
  r.name = m.name;
  r.phase = static_cast<int>(out.phases.size());
  r.is_otherwise = m.is_otherwise;
  int c = gen.new_callable(m.name, m.frame);
  int fb = out.callables[c].frame;
  for (auto& p : m.params) {
    RuleParam rp;
    rp.name = p.name;
    rp.domain = gen.domain(*p.domain, fb);
    rp.filter = p.filter ? gen.expr(*p.filter, fb) : -1;
    rp.written_domain = gen.domain(*p.domain, fb);
    rp.written_filter = p.filter ? gen.expr(*p.filter, fb) : -1;
    rp.distinct = p.distinct ? gen.expr(*p.distinct, fb) : -1;
    rp.slot = fb + p.slot;
    rp.kind = gen.value_kind(*p.domain);
    id_values(*p.domain, out, rp);
    r.params.push_back(rp);
  }
  if (r.params.size() > static_cast<size_t>(lang::kMaxMoveParams))
    diags.report(Code::eval_error, m.span, fmt::format("a move has at most {} parameters", lang::kMaxMoveParams));
  else
    bound_move_tries(m, out);
  r.guard = m.guard ? gen.expr(*m.guard, fb) : -1;
  r.body = gen.block(m.body, fb);
  r.has_reads = m.has_reads;
  r.span = m.span;
  for (const auto& part : m.reads) {
    compile::ReadPart rp;
    rp.text = part.text;
    rp.skip = part.skip;
    if (part.cond) rp.cond = gen.expr(*part.cond, fb);
    if (part.value) {
      if (part.domain) {
        rp.domain = gen.domain(*part.domain, fb);
        rp.filter = part.filter ? gen.expr(*part.filter, fb) : -1;
        rp.slot = fb + part.slot;
      }
      rp.value = gen.expr(*part.value, fb);
      rp.kind = lang::value_kind(lang::without_none(part.value->type));  // none itself shows as nothing
    }
    r.reads.push_back(std::move(rp));
  }
  return r;
}

// The values a parameter's digit of an action id stands for (runtime/actions.hpp): what its
// domain can hold, known before play: sites (a region's too), seats, pieces, a constant range;
// else a range known only in play, given the values 0 .. kOpenRangeIdValues-1.
void Compiler::id_values(const ast::Expr& d, const Program& out, RuleParam& rp) {
  rp.id_low = 0;
  if (d.kind == ExprKind::Range) {
    auto lo = constant(*d.kids[0]), hi = constant(*d.kids[1]);
    if (lo && hi) {
      rp.id_low = *lo;
      rp.id_count = std::max<int64_t>(0, *hi - *lo + 1);
    } else {
      rp.id_count = lang::kOpenRangeIdValues;
    }
  } else if (d.type == ast::Type::Domain) {
    auto t = static_cast<ast::Type>(d.enum_id);
    rp.id_count = out.count_of(t);
  } else {
    rp.id_count = out.num_sites;  // a region or track: its sites
  }
}

// Listing a rule's moves tries every value of its first parameter, then every value of the
// second for each, and so on. When the domains' sizes are known now (constant ranges, sites,
// seats, pieces; a region at most the largest) and that count passes kMaxMoveTries, the rule is
// refused here; otherwise both engines stop a listing that passes it, naming the rule.
void Compiler::bound_move_tries(const ast::Move& m, const Program& out) {
  int64_t largest_region = 0;
  for (const auto& r : out.regions) largest_region = std::max<int64_t>(largest_region, static_cast<int64_t>(r.size()));
  int64_t tries = 0, product = 1;
  for (const auto& p : m.params) {
    const ast::Expr& d = *p.domain;
    int64_t size = largest_region;
    if (d.kind == ExprKind::Range) {
      auto lo = constant(*d.kids[0]), hi = constant(*d.kids[1]);
      if (!lo || !hi) return;  // known only in play
      size = std::max<int64_t>(0, std::min<int64_t>(*hi - *lo + 1, lang::kMaxMoveTries + 1));
    } else if (d.type == ast::Type::Domain) {
      auto t = static_cast<ast::Type>(d.enum_id);
      size = out.count_of(t);
    }
    product = std::min<int64_t>(product * size, lang::kMaxMoveTries + 1);
    tries = std::min<int64_t>(tries + product, lang::kMaxMoveTries + 1);
  }
  if (tries > lang::kMaxMoveTries)
    diags.report(Code::too_large, m.params[0].domain->span,
                 fmt::format("listing the moves of '{}' would try more than {} values of its parameters "
                             "(kMaxMoveTries)",
                             m.name, lang::kMaxMoveTries),
                 "narrow the parameters' domains, or choose one parameter in the move's body");
}

// `limit moves`, `limit work`, `limit history` and `limit points`, the last one read of each winning (a
// variant's); Keli's own bounds when a game declares none: no game runs forever, no step does
// unbounded work, no history grows without end.
void Compiler::set_limits(Program& out) {
  using lang::GameLimit;
  out.move_limit = kDefaultMoveLimit;
  out.work_budget = lang::kDefaultWorkBudget;
  out.history.capacity = lang::kDefaultHistory;
  for (auto* l : ck.limits) {
    const auto which = static_cast<GameLimit>(lang::find_game_limit(l->name));
    const int64_t most = which == GameLimit::work      ? lang::kMaxWorkBudget
                         : which == GameLimit::history ? lang::kMaxHistory
                                                       : INT32_MAX;
    int64_t v = need_constant(*l->value, "a limit");
    if (v < 1 || v > most)
      diags.report(Code::eval_error, l->value->span,
                   fmt::format("'limit {}' must be 1 to {}, not {}", l->name, most, v));
    else if (which == GameLimit::work)
      out.work_budget = v;
    else if (which == GameLimit::history) {
      out.history.capacity = static_cast<int>(v);
      out.history_limit = l->span;
    } else if (which == GameLimit::points)
      out.points_limit = static_cast<int32_t>(v);
    else
      out.move_limit = static_cast<int>(v);
  }
  // Points have no bound of Keli's own: the game says what a result can be worth, which is also
  // its range of returns (Python's min_utility and max_utility).
  if (ck.scores_points && out.points_limit == 0)
    diags.report(Code::missing_decl, ck.points_at, "a game that scores points says how many at most: 'limit points N'",
                 "each seat's points then lie in -N..N, e.g. 'limit points 3' for a backgammon");
}

// A game that reads `repetitions` keeps the key of its position in two slots at the end of the
// state (after the declared facts'); the positions themselves live outside it (runtime/past.hpp).
// It compares the parts `repetitions compare` names whose `when` holds, else the whole position.
void Compiler::lay_out_history(Program& out) {
  if (!out.history_reads.valid()) return;
  lang::HistoryLayout& h = out.history;
  out.var_compared.assign(out.vars.size(), 0);
  auto add = [&h](int begin, int end) {
    if (h.nranges > 0 && h.ranges[2 * h.nranges - 1] == begin) {
      h.ranges[2 * h.nranges - 1] = end;
    } else {
      h.ranges[2 * h.nranges] = begin;
      h.ranges[2 * h.nranges + 1] = end;
      ++h.nranges;
    }
    h.parts += end - begin;
  };
  auto compare_var = [&](size_t v) { out.var_compared[v] = 1; };
  if (!ck.compared) {
    out.mover_compared = out.phase_compared = true;
    for (size_t v = 0; v < out.vars.size(); ++v) compare_var(v);
  } else {
    for (size_t i = 0; i < ck.compared->names.size() && i < static_cast<size_t>(lang::kMaxComparedParts); ++i) {
      const ast::Expr* when = ck.compared->part_when[i].get();
      if (when && need_constant(*when, "a compared part's 'when'") == 0) continue;
      const std::string& part = ck.compared->names[i];
      if (part == "mover") out.mover_compared = true;
      if (part == "phase") out.phase_compared = true;
      for (size_t v = 0; v < out.vars.size(); ++v)
        if (out.vars[v].name == part) compare_var(v);
    }
  }
  // In slot order, so that neighbouring parts make one range.
  if (out.mover_compared) add(kMover, kMover + 1);
  if (out.phase_compared) add(kPhase, kPhase + 1);
  for (size_t v = 0; v < out.vars.size(); ++v)
    if (out.var_compared[v]) add(out.vars[v].base, out.vars[v].base + out.vars[v].size());
  h.key = out.state_size;
  out.state_size += 2;
  out.initial.resize(out.state_size, 0);
  lang::store_key(out.initial.data(), h, lang::full_key(out.initial.data(), h));
}

// `display pieces at F by G` gives two callables; the other forms a variable (shown on the
// board, as stores or as the dice in hand) or a region's marks.
void Compiler::compile_display(CodeGen& gen, Program& out, const ast::Decl& d) {
  const lang::Display form = check::display_form(ck, d);
  if (form == lang::Display::Pieces) {
    out.piece_site = piece_function(gen, out, d.names[0]);
    out.piece_owner = piece_function(gen, out, d.names[1]);
    return;
  }
  int& var = form == lang::Display::Stores ? out.display_stores
             : form == lang::Display::Hand ? out.display_hand
                                           : out.display;
  for (size_t i = 0; i < ck.vars.size(); ++i)
    if (ck.vars[i]->name == d.name) var = static_cast<int>(i);
  for (size_t i = 0; i < out.region_tables.size(); ++i)
    if (form == lang::Display::Marks && out.region_tables[i].name == d.name && out.region_tables[i].dims.empty())
      out.display_marks = out.region_tables[i].base;
}

// A callable (pc) -> value for `display pieces`: the named function, or a table read as one.
int Compiler::piece_function(CodeGen& gen, Program& out, const std::string& name) {
  const check::Symbol& s = ck.syms[ck.lookup(name)];
  if (s.kind == SymKind::Def) return gen.callable_for(*s.decl);
  int c = gen.new_callable(name, 1);
  int slot = out.callables[c].frame;
  out.callables[c].params.push_back(slot);
  Node local;
  local.op = Op::Local;
  local.a = slot;
  out.code.push_back(local);
  out.spans.push_back(s.decl->name_span);
  Node get;
  get.op = s.kind == SymKind::Var ? Op::StateGet : Op::ConstGet;
  const auto& tables = s.kind == SymKind::Var ? out.vars : out.const_tables;
  for (size_t i = tables.size(); i-- > 0;)  // the first of the name: the game's own, not the geometry's
    if (tables[i].name == name) get.a = static_cast<int32_t>(i);
  get.k[0] = static_cast<int32_t>(out.code.size()) - 1;
  out.code.push_back(get);
  out.spans.push_back(s.decl->name_span);
  out.callables[c].body = static_cast<int>(out.code.size()) - 1;
  out.callables[c].is_expr = true;
  return c;
}

// A def the computer players look up by name: `NAME(p: player): int`, or -1 (absent, or of
// another shape; the checker rejects a wrong `evaluate`).
int Compiler::agent_hook(CodeGen& gen, const std::string& name) {
  int i = ck.lookup(name);
  if (i < 0) return -1;
  const check::Symbol& s = ck.syms[i];
  if (s.kind != SymKind::Def || s.decl->formals.size() != 1 || s.decl->formals[0].type != "player" ||
      s.type != ast::Type::Int)
    return -1;
  return gen.callable_for(*s.decl);
}

// The defs `search_KEY(): int` are compiled although the rules never call them: the players
// read them when they are made.
void Compiler::search_settings(CodeGen& gen, Program& out) {
  for (const ast::Decl* d : ck.defs) {
    if (d->name.rfind(lang::kSearchSettingPrefix, 0) != 0 || !d->formals.empty() || d->type != "int" || !d->value)
      continue;
    out.search_settings.emplace_back(d->name.substr(lang::kSearchSettingPrefix.size()), gen.callable_for(*d));
  }
}

std::shared_ptr<const Program> compile_game(const check::Checked& ck, const ParamSettings& settings,
                                            const SourceSet& src, diag::Diagnostics& diags,
                                            const BoardRunner& run_board, bool optimized) {
  if (diags.has_errors() || ck.main < 0 || !ck.players || !ck.board || ck.phases.empty()) return nullptr;
  Compiler c{ck, src, diags, run_board, {}, optimized};
  return c.run(settings);
}

}  // namespace keli::compile
