// The compiler on the board: table layout, building the board by running its code once, and the
// dice with the exact weights of their throws.
#include "compile/compiler_impl.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "lang/limits.hpp"

namespace keli::compile {
namespace {
// Whether a range bound reads the built-in `most_dice` (for the hint of an empty range).
bool reads_most_dice(const ast::Expr& e) {
  return check::is_most_dice(e) ||
         std::any_of(e.kids.begin(), e.kids.end(), [](const ast::ExprPtr& k) { return k && reads_most_dice(*k); });
}
}  // namespace

using ast::ExprKind;
using check::SymKind;
using diag::Code;

// Table layouts: `site` dimensions get room for every possible site while the board is built.
VarInfo Compiler::layout(const ast::Decl& d, int base, const Program& out, bool building) {
  VarInfo t;
  t.name = d.name;
  t.base = base;
  using lang::ValueKind;
  const std::string none_suffix = " or none";
  t.or_none = d.type.size() > none_suffix.size() && d.type.ends_with(none_suffix);
  const std::string elem = t.or_none ? d.type.substr(0, d.type.size() - none_suffix.size()) : d.type;
  t.kind = elem == "bool"        ? ValueKind::Bool
           : elem == "site"      ? ValueKind::Site
           : elem == "player"    ? ValueKind::Player
           : elem == "piece"     ? ValueKind::Piece
           : elem == "direction" ? ValueKind::Direction
                                 : ValueKind::Int;
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
    } else if (dim.type == "direction") {  // indexed as the range 0..D-1
      t.dims.push_back(std::max<int>(1, static_cast<int>(ck.directions.size())));
      t.lows.push_back(0);
      t.dim_kinds.push_back(lang::DimKind::Range);
    } else {
      int64_t lo = need_constant(*dim.lo, "a range bound"), hi = need_constant(*dim.hi, "a range bound");
      if (hi < lo) {
        diags.report(Code::eval_error, dim.span, fmt::format("the range {}..{} is empty", lo, hi),
                     most_dice == 0 && reads_most_dice(*dim.hi)
                         ? "'most_dice' is 0: the game declares no dice (stdlib/dice.keli needs a 'dice' set)"
                         : "");
        hi = lo;
      } else if (hi - lo >= lang::kMaxTableCells) {  // the whole table is measured below; this keeps it in an int
        hi = lo + lang::kMaxTableCells;
      }
      t.dims.push_back(static_cast<int>(hi - lo + 1));
      t.lows.push_back(static_cast<int>(lo));
      t.dim_kinds.push_back(lang::DimKind::Range);
    }
  }
  // Bounded before anything is allocated: the table, and all tables of its kind up to it.
  int64_t cells = 1;
  for (int x : t.dims) cells = std::min<int64_t>(cells * x, lang::kMaxTableCells + 1);
  if (cells > lang::kMaxTableCells || base + cells > lang::kMaxTableCells) {
    diags.report(
        Code::too_large, d.name_span,
        cells > lang::kMaxTableCells
            ? fmt::format("the table '{}' has more than {} cells (kMaxTableCells)", d.name, lang::kMaxTableCells)
            : fmt::format("the tables up to '{}' have more than {} cells in all (kMaxTableCells)", d.name,
                          lang::kMaxTableCells),
        building ? fmt::format("while the board is built a 'per site' dimension counts {} sites (kMaxSites)",
                               lang::kMaxSites)
                 : "index by fewer or smaller dimensions");
    std::fill(t.dims.begin(), t.dims.end(), 1);
  }
  return t;
}

void Compiler::lay_out_tables(Program& out, bool building) {
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
    for (size_t i = 0; i < ck.consts.size(); ++i) {
      const VarInfo& t = out.const_tables[i];
      auto entries = initial_entries(*ck.consts[i], t, true);
      std::copy(entries.begin(), entries.end(), out.consts.begin() + t.base);
    }
    out.regions.assign(regions, {});
  }
}

// Runs the board code once: sites, regions, tracks and constant tables come out of it.
bool Compiler::build_board(Program& out) {
  Program b;
  b.num_players = out.num_players;
  b.num_pieces = out.num_pieces;
  b.work_budget = out.work_budget;
  b.max_roll = out.max_roll;                // `most_dice` reads it (build_dice ran first)
  b.direction_names = out.direction_names;  // the domain `directions`
  lay_out_tables(b, true);
  CodeGen gen(b, ck, values);
  gen.collection_domain = [&](const ast::Stmt& s) { return collection_domain(s, b, true); };
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
  for (size_t i = 0; i < ck.consts.size(); ++i)
    if (ck.consts[i]->value && ck.consts[i]->value->kind == ExprKind::List)
      check_literal_sites(*ck.consts[i], *ck.consts[i]->value, out.const_tables[i], 0);
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

void Compiler::build_dice(Program& out) {
  for (auto* d : ck.dice) {
    DiceSet ds;
    ds.name = d->name;
    const size_t errors_before = diags.error_count();
    int copies = d->copies ? static_cast<int>(need_constant(*d->copies, "the number of dice")) : 1;
    if (diags.error_count() > errors_before) {
      copies = 1;  // already reported where it could not be computed
    } else if (copies < 1 || copies > lang::kMaxDiceCopies) {
      diags.report(Code::eval_error, d->copies ? d->copies->span : d->span,
                   fmt::format("dice sets hold 1 to {} dice", lang::kMaxDiceCopies));
      copies = 1;
    }
    for (auto& die : d->faces) {
      std::vector<int32_t> f;
      for (auto& e : die) f.push_back(static_cast<int32_t>(need_constant(*e, "a die face")));
      for (int c = 0; c < (d->copies ? copies : 1); ++c) ds.faces.push_back(f);
    }
    bool too_many = ds.faces.size() > static_cast<size_t>(lang::kMaxDice);
    if (too_many)
      diags.report(Code::eval_error, d->span, fmt::format("dice sets hold at most {} dice", lang::kMaxDice));
    // The throws are enumerated one by one: their number is bounded before the walk.
    int64_t throws = 1;
    for (auto& f : ds.faces) throws = std::min<int64_t>(throws * static_cast<int64_t>(f.size()), lang::kMaxThrows + 1);
    if (!too_many && throws > lang::kMaxThrows) {
      too_many = true;
      diags.report(Code::too_large, d->name_span,
                   fmt::format("the dice '{}' can fall in more than {} ways, the most enumerated (kMaxThrows)", d->name,
                               lang::kMaxThrows),
                   "use fewer dice or fewer faces; the ways are the product of the dice's face counts");
    }
    // Every throw, in die order; identical dice give the same throw in any order, so their
    // values are sorted and equal throws merged, each with its exact weight, unless the set is
    // `ordered` (which die shows what matters, as in Backgammon's opening throw).
    bool identical =
        !d->ordered && std::all_of(ds.faces.begin(), ds.faces.end(), [&](auto& f) { return f == ds.faces[0]; });
    ds.identical = identical;
    ds.ordered = d->ordered;
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
    if (!too_many) walk(0);
    ds.total = 0;
    for (auto& [vals, w] : weights) {
      ds.outcomes.push_back({vals, w});
      ds.total += w;
    }
    out.max_roll = std::max(out.max_roll, static_cast<int>(ds.faces.size()));
    out.dice.push_back(std::move(ds));
  }
  most_dice = out.max_roll;
}

int Compiler::dice_choice(const ast::Expr& e) {
  if (e.kind == ExprKind::Cond) {
    auto c = constant(*e.kids[0]);
    return dice_choice(*e.kids[c && *c ? 1 : 2]);
  }
  for (size_t i = 0; i < ck.dice.size(); ++i)
    if (e.sym >= 0 && ck.dice[i]->sym == e.sym) return static_cast<int>(i);
  return -1;
}

}  // namespace keli::compile
