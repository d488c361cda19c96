// The compiler: fixes parameter values, builds the board by running its code once, lays out the
// state, compiles every body to nodes and precomputes the tables play needs (region indexes,
// dice outcomes with exact probabilities).
#include "compile/compiler.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "compile/codegen.hpp"
#include "compile/optimize.hpp"
#include "lang/arith.hpp"
#include "lang/limits.hpp"

namespace keli::compile {
using ast::ExprKind;

using lang::kDefaultMoveLimit;
using check::SymKind;
using diag::Code;

namespace {

struct Compiler {
  const check::Checked& ck;
  const SourceSet& src;
  diag::Diagnostics& diags;
  const BoardRunner& run_board;
  std::map<int, int64_t> values;  // parameter symbol -> value
  bool optimized = true;

  // Constant expressions: literals, parameters, seats, choices, operators.
  std::optional<int64_t> constant(const ast::Expr& e) {
    switch (e.kind) {
      case ExprKind::Int:
      case ExprKind::Bool: return e.value;
      case ExprKind::Name:
        if (e.sym >= 0 && !e.is_local) {
          const auto& s = ck.syms[e.sym];
          if (s.kind == SymKind::Param) return values.at(e.sym);
          if (s.kind == SymKind::Seat) return s.index;
        }
        return std::nullopt;
      case ExprKind::Neg:
      case ExprKind::Not: {
        auto v = constant(*e.kids[0]);
        return v ? arith(e, lang::apply(e.op, *v)) : std::nullopt;
      }
      case ExprKind::Cond: {
        auto c = constant(*e.kids[0]);
        if (!c) return std::nullopt;
        return constant(*e.kids[*c ? 1 : 2]);
      }
      case ExprKind::Binary: {
        if (e.op == lang::Operator::In) return std::nullopt;
        auto a = constant(*e.kids[0]);
        if (!a) return std::nullopt;
        // `and` / `or` look at their right side only when play would.
        if (e.op == lang::Operator::And && *a == 0) return 0;
        if (e.op == lang::Operator::Or && *a != 0) return 1;
        auto b = constant(*e.kids[1]);
        if (!b) return std::nullopt;
        return arith(e, lang::apply(e.op, *a, *b));
      }
      default: return std::nullopt;
    }
  }

  // A value computed before play, or its fault reported at the operator as play would report it.
  std::optional<int64_t> arith(const ast::Expr& e, lang::Result r) {
    if (r.ok()) return r.value;
    diags.report(Code::eval_error, e.span, lang::fault_message(r.fault));
    return std::nullopt;
  }

  int64_t need_constant(const ast::Expr& e, const char* what) {
    size_t before = diags.error_count();
    auto v = constant(e);
    if (!v && diags.error_count() == before) {
      diags.report(Code::not_constant, e.span, fmt::format("{} could not be computed before play", what));
      return 0;
    }
    return *v;
  }

  // A constant that is stored: it must fit a 32-bit slot, as a value stored in play must.
  int64_t stored_constant(const ast::Expr& e, const char* what) {
    int64_t v = need_constant(e, what);
    if (lang::fits_state(v)) return v;
    diags.report(Code::eval_error, e.span, fmt::format("value {} is too large to store", v));
    return 0;
  }

  // Parameter values: defaults, then the caller's settings (checked against the declarations).
  bool set_params(const ParamSettings& settings, Program& out) {
    for (auto* d : ck.params) {
      const ast::Expr& v = *d->value;
      if (d->ptype == ast::ParamType::Enum) values[d->sym] = v.ref >= 0 ? v.ref : 0;
      else values[d->sym] = v.kind == ExprKind::Neg ? -v.kids[0]->value : v.value;
    }
    bool ok = true;
    for (const auto& [name, text] : settings) {
      int sym = ck.lookup(name);
      if (sym < 0 || ck.syms[sym].kind != SymKind::Param) {
        std::vector<std::string> names;
        for (auto* d : ck.params) names.push_back(d->name);
        std::string hint = diag::suggest(name, names);
        if (hint.empty()) hint = names.empty() ? "this game has no parameters" : fmt::format("parameters: {}", fmt::join(names, ", "));
        diags.report(Code::unknown_param, Span{}, fmt::format("unknown parameter '{}'", name), hint);
        ok = false;
        continue;
      }
      auto v = parse_value(*ck.syms[sym].decl, text);
      if (!v) {
        ok = false;
        continue;
      }
      values[sym] = *v;
    }
    for (auto* d : ck.params) out.params.emplace_back(d->name, value_text(*d, values[d->sym]));
    return ok;
  }

  std::string value_text(const ast::Decl& d, int64_t v) {
    if (d.ptype == ast::ParamType::Bool) return v ? "true" : "false";
    if (d.ptype == ast::ParamType::Enum) return d.choices.at(static_cast<size_t>(v));
    return std::to_string(v);
  }

  std::optional<int64_t> parse_value(const ast::Decl& d, const std::string& text) {
    auto bad = [&](const std::string& allowed) -> std::optional<int64_t> {
      diags.report(Code::bad_param_value, Span{}, fmt::format("'{}' is not a valid value for parameter '{}'", text, d.name),
                   fmt::format("allowed: {}", allowed));
      return std::nullopt;
    };
    if (d.ptype == ast::ParamType::Bool) {
      if (text == "true" || text == "yes" || text == "1" || text == "on") return 1;
      if (text == "false" || text == "no" || text == "0" || text == "off") return 0;
      return bad("true or false");
    }
    if (d.ptype == ast::ParamType::Enum) {
      auto it = std::find(d.choices.begin(), d.choices.end(), text);
      if (it == d.choices.end()) return bad(fmt::format("{}", fmt::join(d.choices, ", ")));
      return it - d.choices.begin();
    }
    int64_t v = 0;
    size_t used = 0;
    try {
      v = std::stoll(text, &used);
    } catch (...) {
      used = 0;
    }
    std::string allowed = "a whole number";
    if (d.lo) allowed = fmt::format("{}..{}", d.lo->kind == ExprKind::Neg ? -d.lo->kids[0]->value : d.lo->value,
                                    d.hi->kind == ExprKind::Neg ? -d.hi->kids[0]->value : d.hi->value);
    if (!d.allowed.empty()) {
      std::vector<std::string> vals;
      for (auto& a : d.allowed) vals.push_back(std::to_string(a->kind == ExprKind::Neg ? -a->kids[0]->value : a->value));
      allowed = fmt::format("{}", fmt::join(vals, ", "));
    }
    if (text.empty() || used != text.size() || v > INT32_MAX || v < INT32_MIN) return bad(allowed);
    if (d.lo) {
      auto lo = constant(*d.lo), hi = constant(*d.hi);
      if (lo && hi && (v < *lo || v > *hi)) return bad(allowed);
    }
    if (!d.allowed.empty()) {
      bool found = false;
      for (auto& a : d.allowed) found = found || constant(*a) == v;
      if (!found) return bad(allowed);
    }
    return v;
  }

  // Table layouts: `site` dimensions get room for every possible site while the board is built.
  VarInfo layout(const ast::Decl& d, int base, const Program& out, bool building) {
    VarInfo t;
    t.name = d.name;
    t.base = base;
    using lang::ValueKind;
    t.kind = d.type == "bool" ? ValueKind::Bool : d.type == "site" ? ValueKind::Site : d.type == "player" ? ValueKind::Player
           : d.type == "piece" ? ValueKind::Piece : ValueKind::Int;
    for (auto& dim : d.dims) {
      if (dim.type == "site") {
        t.dims.push_back(building ? lang::kMaxSites : out.num_sites);
        t.lows.push_back(0);
        t.dim_kinds.push_back(lang::DimKind::Site);
      } else if (dim.type == "player") {
        t.dims.push_back(out.num_players);
        t.lows.push_back(0);
        t.dim_kinds.push_back(lang::DimKind::Player);
      } else if (dim.type == "piece") {
        t.dims.push_back(out.num_pieces);
        t.lows.push_back(0);
        t.dim_kinds.push_back(lang::DimKind::Piece);
      } else {
        int64_t lo = need_constant(*dim.lo, "a range bound"), hi = need_constant(*dim.hi, "a range bound");
        if (hi < lo || hi - lo >= 1'000'000) {
          diags.report(Code::eval_error, dim.span, fmt::format("the range {}..{} is empty or too large", lo, hi));
          hi = lo;
        }
        t.dims.push_back(static_cast<int>(hi - lo + 1));
        t.lows.push_back(static_cast<int>(lo));
        t.dim_kinds.push_back(lang::DimKind::Range);
      }
    }
    return t;
  }

  void lay_out_tables(Program& out, bool building) {
    out.const_tables.clear();
    out.region_tables.clear();
    int base = 0;
    for (auto* d : ck.consts) {
      out.const_tables.push_back(layout(*d, base, out, building));
      base += out.const_tables.back().size();
    }
    int regions = 0;
    for (auto* list : {&ck.regions, &ck.tracks})
      for (auto* d : *list) {
        for (auto& dim : d->dims)
          if (dim.type == "site")
            diags.report(Code::bad_index, dim.span, "regions and tracks cannot be indexed per site",
                         "index them per player, per piece or per range");
        out.region_tables.push_back(layout(*d, regions, out, false));
        regions += out.region_tables.back().size();
      }
    if (building) {
      out.consts.assign(base, 0);
      for (size_t i = 0; i < ck.consts.size(); ++i)
        if (ck.consts[i]->value) {
          int64_t v = stored_constant(*ck.consts[i]->value, "a constant's initial value");
          auto& t = out.const_tables[i];
          std::fill(out.consts.begin() + t.base, out.consts.begin() + t.base + t.size(), v);
        }
      out.regions.assign(regions, {});
    }
  }

  // Runs the board code once: sites, regions, tracks and constant tables come out of it.
  bool build_board(Program& out) {
    Program b;
    b.num_players = out.num_players;
    b.num_pieces = out.num_pieces;
    lay_out_tables(b, true);
    CodeGen gen(b, ck, values, true);
    int entry;
    if (ck.board->value) {
      const ast::Expr& call = *ck.board->value;
      int callee = call.sym >= 0 ? gen.callable_for(*ck.syms[call.sym].decl) : -1;
      if (callee < 0) return false;
      int n = gen.expr(call, 0);
      (void)n;
      entry = gen.new_callable("board", 0);
      b.callables[entry].body = n;
      b.callables[entry].is_expr = true;
    } else {
      entry = gen.new_callable("board", ck.board->frame);
      b.callables[entry].body = gen.block(ck.board->body, b.callables[entry].frame);
    }
    try {
      run_board(b, entry);
    } catch (const diag::Error& e) {
      diags.report(Code::eval_error, e.span, fmt::format("building the board failed: {}", e.message));
      return false;
    }
    out.sites = b.sites;
    out.num_sites = static_cast<int>(b.sites.size());
    if (out.num_sites == 0) {
      diags.report(Code::eval_error, ck.board->span, "the board has no sites", "make sites with 'site(x, y)' in a shape");
      return false;
    }
    out.regions = b.regions;
    lay_out_tables(out, false);
    out.consts.assign(0, 0);
    for (size_t i = 0; i < out.const_tables.size(); ++i) {  // copy the used part of each table
      const VarInfo& from = b.const_tables[i];
      const VarInfo& to = out.const_tables[i];
      out.consts.resize(to.base + to.size(), 0);
      std::vector<int> ix(to.dims.size(), 0);
      for (int k = 0; k < to.size(); ++k) {
        int rem = k, off = 0;
        for (size_t dd = to.dims.size(); dd-- > 0;) {
          ix[dd] = rem % to.dims[dd];
          rem /= to.dims[dd];
        }
        for (size_t dd = 0; dd < to.dims.size(); ++dd) off = off * from.dims[dd] + ix[dd];
        out.consts[to.base + k] = b.consts[from.base + off];
      }
    }
    out.region_index.assign(out.regions.size(), std::vector<int16_t>(out.num_sites, -1));
    for (size_t r = 0; r < out.regions.size(); ++r)
      for (size_t i = out.regions[r].size(); i-- > 0;) out.region_index[r][out.regions[r][i]] = static_cast<int16_t>(i);
    return true;
  }

  void build_dice(Program& out) {
    for (auto* d : ck.dice) {
      DiceSet ds;
      ds.name = d->name;
      int copies = d->copies ? static_cast<int>(need_constant(*d->copies, "the number of dice")) : 1;
      if (copies < 1 || copies > lang::kMaxDiceCopies) {
        diags.report(Code::eval_error, d->copies ? d->copies->span : d->span, "dice sets hold 1 to 8 dice");
        copies = 1;
      }
      for (auto& die : d->faces) {
        std::vector<int32_t> f;
        for (auto& e : die) f.push_back(static_cast<int32_t>(need_constant(*e, "a die face")));
        for (int c = 0; c < (d->copies ? copies : 1); ++c) ds.faces.push_back(f);
      }
      if (ds.faces.size() > static_cast<size_t>(lang::kMaxDice))
        diags.report(Code::eval_error, d->span, fmt::format("dice sets hold at most {} dice", lang::kMaxDice));
      // Every throw, in die order; identical dice give the same throw in any order, so their
      // values are sorted and equal throws merged, each with its exact weight.
      bool identical = std::all_of(ds.faces.begin(), ds.faces.end(), [&](auto& f) { return f == ds.faces[0]; });
      ds.identical = identical;
      std::map<std::vector<int32_t>, int64_t> weights;
      std::vector<int32_t> cur(ds.faces.size());
      std::function<void(size_t)> walk = [&](size_t i) {
        if (i == ds.faces.size()) {
          auto key = cur;
          if (identical) std::sort(key.begin(), key.end());
          weights[key] += 1;
          return;
        }
        for (int32_t v : ds.faces[i]) {
          cur[i] = v;
          walk(i + 1);
        }
      };
      if (ds.faces.size() <= 8) walk(0);
      ds.total = 0;
      for (auto& [vals, w] : weights) {
        ds.outcomes.push_back({vals, w});
        ds.total += w;
      }
      out.max_roll = std::max(out.max_roll, static_cast<int>(ds.faces.size()));
      out.dice.push_back(std::move(ds));
    }
  }

  // A callable (pc) -> value for `display pieces`: the named function, or a table read as one.
  int piece_function(CodeGen& gen, Program& out, const std::string& name) {
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
    for (size_t i = 0; i < tables.size(); ++i)
      if (tables[i].name == name) get.a = static_cast<int32_t>(i);
    get.k[0] = static_cast<int32_t>(out.code.size()) - 1;
    out.code.push_back(get);
    out.spans.push_back(s.decl->name_span);
    out.callables[c].body = static_cast<int>(out.code.size()) - 1;
    out.callables[c].is_expr = true;
    return c;
  }

  int dice_choice(const ast::Expr& e) {
    if (e.kind == ExprKind::Cond) {
      auto c = constant(*e.kids[0]);
      return dice_choice(*e.kids[c && *c ? 1 : 2]);
    }
    for (size_t i = 0; i < ck.dice.size(); ++i)
      if (e.sym >= 0 && ck.dice[i]->sym == e.sym) return static_cast<int>(i);
    return -1;
  }

  std::shared_ptr<Program> run(const ParamSettings& settings) {
    auto out = std::make_shared<Program>();
    out->game_name = ck.game_name;
    out->file = src.file(ck.modules[ck.main].file).path;
    out->about = ck.about;
    if (!set_params(settings, *out)) return nullptr;
    int64_t players = need_constant(*ck.players->value, "the number of players");
    if (diags.has_errors()) return nullptr;
    if (players < 1 || players > lang::kMaxPlayers) {
      diags.report(Code::eval_error, ck.players->value->span, fmt::format("{} players: a game has 1 to {}", players, lang::kMaxPlayers));
      return nullptr;
    }
    out->num_players = static_cast<int>(players);
    for (int i = 0; i < players; ++i)
      out->seat_names.push_back(i < static_cast<int>(ck.players->names.size()) ? ck.players->names[i] : fmt::format("P{}", i + 1));
    if (!ck.players->names.empty() && static_cast<int64_t>(ck.players->names.size()) != players)
      diags.report(Code::eval_error, ck.players->name_spans[0],
                   fmt::format("{} seat names for {} players", ck.players->names.size(), players));
    if (ck.pieces) {
      int64_t n = need_constant(*ck.pieces->value, "the number of pieces");
      if (n < 0 || n > lang::kMaxPieces)
        diags.report(Code::eval_error, ck.pieces->value->span, fmt::format("a game has 0 to {} pieces", lang::kMaxPieces));
      else out->num_pieces = static_cast<int>(n);
    }
    if (diags.has_errors() || !build_board(*out)) return nullptr;
    build_dice(*out);

    // State: the fixed slots, then every variable.
    int base = kPlaces + out->num_players;
    for (auto* d : ck.vars) {
      out->vars.push_back(layout(*d, base, *out, false));
      base += out->vars.back().size();
    }
    out->state_size = base;
    out->initial.assign(base, 0);
    out->initial[kNextPlace] = 1;
    for (size_t i = 0; i < ck.vars.size(); ++i)
      if (ck.vars[i]->value) {
        int64_t v = stored_constant(*ck.vars[i]->value, "a variable's initial value");
        auto& t = out->vars[i];
        std::fill(out->initial.begin() + t.base, out->initial.begin() + t.base + t.size(), static_cast<int32_t>(v));
      }

    CodeGen gen(*out, ck, values, false);
    for (size_t i = 0; i < ck.phases.size(); ++i) gen.phase_ids[ck.phases[i]->sym] = static_cast<int>(i);
    for (size_t i = 0; i < ck.events.size(); ++i) gen.event_ids[ck.events[i]->sym] = static_cast<int>(i);
    out->handlers.assign(ck.events.size(), {});
    for (auto* h : ck.handlers) {
      int c = gen.new_callable("on " + h->name, h->frame);
      int fb = out->callables[c].frame;
      for (size_t i = 0; i < h->formals.size(); ++i) out->callables[c].params.push_back(fb + static_cast<int>(i));
      Handler hd;
      hd.callable = c;
      hd.guard = h->guard ? gen.expr(*h->guard, fb) : -1;
      out->callables[c].body = gen.block(h->body, fb);
      if (gen.event_ids.count(h->sym)) out->handlers[gen.event_ids[h->sym]].push_back(hd);
    }
    for (auto* s : ck.setups) {
      int c = gen.new_callable("setup", s->frame);
      out->callables[c].body = gen.block(s->body, out->callables[c].frame);
      out->setups.push_back(c);
    }
    for (auto* ph : ck.phases) {
      PhaseInfo pi;
      pi.name = ph->name;
      pi.span = ph->name_span;
      if (ph->value) {
        pi.dice = dice_choice(*ph->value);
        int c = gen.new_callable("phase " + ph->name, ph->frame);
        pi.chance_body = gen.block(ph->body, out->callables[c].frame);
      }
      for (auto& m : ph->moves) {
        Rule r;
        r.name = m.name;
        r.phase = static_cast<int>(out->phases.size());
        r.is_otherwise = m.is_otherwise;
        int c = gen.new_callable(m.name, m.frame);
        int fb = out->callables[c].frame;
        for (auto& p : m.params) {
          RuleParam rp;
          rp.name = p.name;
          rp.domain = gen.domain(*p.domain, fb);
          rp.filter = p.filter ? gen.expr(*p.filter, fb) : -1;
          rp.slot = fb + p.slot;
          rp.kind = gen.value_kind(*p.domain);
          r.params.push_back(rp);
        }
        if (r.params.size() > static_cast<size_t>(lang::kMaxMoveParams))
          diags.report(Code::eval_error, m.span, fmt::format("a move has at most {} parameters", lang::kMaxMoveParams));
        r.guard = m.guard ? gen.expr(*m.guard, fb) : -1;
        r.body = gen.block(m.body, fb);
        int id = static_cast<int>(out->rules.size());
        out->rules.push_back(std::move(r));
        if (m.is_otherwise) pi.otherwise = id;
        else pi.rules.push_back(id);
      }
      out->phases.push_back(std::move(pi));
    }
    for (auto* inv : ck.invariants) {
      int c = gen.new_callable("invariant", inv->frame);
      out->callables[c].body = gen.expr(*inv->value, out->callables[c].frame);
      out->callables[c].is_expr = true;
      out->invariants.emplace_back(inv->doc, c);
    }
    // Keli's own bound when a game declares none: no game runs forever.
    out->move_limit = kDefaultMoveLimit;
    for (auto* l : ck.limits) {
      int64_t v = need_constant(*l->value, "a limit");
      if (v < 1 || v > INT32_MAX) diags.report(Code::eval_error, l->value->span, fmt::format("a limit must be 1 to {}, not {}", INT32_MAX, v));
      else out->move_limit = static_cast<int>(v);
    }
    for (auto* d : ck.displays) {
      if (d->names.size() == 2) {
        out->piece_site = piece_function(gen, *out, d->names[0]);
        out->piece_owner = piece_function(gen, *out, d->names[1]);
        continue;
      }
      for (size_t i = 0; i < ck.vars.size(); ++i)
        if (ck.vars[i]->name == d->name) out->display = static_cast<int>(i);
      for (size_t i = 0; i < out->region_tables.size(); ++i)
        if (out->region_tables[i].name == d->name && out->region_tables[i].dims.empty()) out->display_marks = out->region_tables[i].base;
    }
    out->evaluate = agent_hook(gen, "evaluate");
    out->team = agent_hook(gen, "team");
    if (diags.has_errors()) return nullptr;
    build_access_tables(*out);
    if (optimized) optimize(*out);
    return out;
  }

  // A def the computer players look up by name: `NAME(p: player): int`, or -1 (absent, or of
  // another shape; the checker rejects a wrong `evaluate`).
  int agent_hook(CodeGen& gen, const std::string& name) {
    int i = ck.lookup(name);
    if (i < 0) return -1;
    const check::Symbol& s = ck.syms[i];
    if (s.kind != SymKind::Def || s.decl->formals.size() != 1 || s.decl->formals[0].type != "player" || s.type != ast::Type::Int)
      return -1;
    return gen.callable_for(*s.decl);
  }
};

}  // namespace

std::shared_ptr<const Program> compile_game(const check::Checked& ck, const ParamSettings& settings,
                                            const SourceSet& src, diag::Diagnostics& diags,
                                            const BoardRunner& run_board, bool optimized) {
  if (diags.has_errors() || ck.main < 0 || !ck.players || !ck.board || ck.phases.empty()) return nullptr;
  Compiler c{ck, src, diags, run_board, {}, optimized};
  return c.run(settings);
}

}  // namespace keli::compile
