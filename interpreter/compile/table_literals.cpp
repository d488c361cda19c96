// A table's initial value laid into its entries: one value for every entry, or a literal written
// as one level of brackets per dimension (`[[1, 2], [3, 4]]`), whose lengths must be the
// dimensions' sizes. The checker has seen the nesting and the types (check/check_types.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "compile/compiler_impl.hpp"

namespace keli::compile {
namespace {

using diag::Code;

// How a dimension's size is said in a message: "4 entries (0..3)", "3 players".
std::string dimension_words(const VarInfo& t, size_t d) {
  int n = t.dims[d];
  switch (t.dim_kinds[d]) {
    case lang::DimKind::Site: return fmt::format("{} site{} (per site)", n, n == 1 ? "" : "s");
    case lang::DimKind::Player: return fmt::format("{} player{} (per player)", n, n == 1 ? "" : "s");
    case lang::DimKind::Piece: return fmt::format("{} piece{} (per piece)", n, n == 1 ? "" : "s");
    case lang::DimKind::Range: break;
  }
  return fmt::format("{} entr{} ({}..{})", n, n == 1 ? "y" : "ies", t.lows[d], t.lows[d] + n - 1);
}

}  // namespace

// Lays `list` (the rows of dimension `depth`) into data from `offset`. While the board is built a
// `per site` dimension is still open: its list may be shorter than the room kept for sites; the
// final count is checked once the board is made (check_literal_sites).
void Compiler::fill_rows(const ast::Decl& d, const ast::Expr& list, const VarInfo& t, size_t depth, int offset,
                         std::vector<int64_t>& data, bool building) {
  int n = t.dims[depth];
  int len = static_cast<int>(list.kids.size());
  bool open = building && t.dim_kinds[depth] == lang::DimKind::Site;
  if (open ? len > n : len != n) {
    diags.report(Code::eval_error, list.span,
                 fmt::format("this list has {} entr{}, but {} of '{}' has {}", len, len == 1 ? "y" : "ies",
                             depth == 0 ? "the first dimension" : fmt::format("dimension {}", depth + 1), d.name,
                             dimension_words(t, depth)),
                 "give one entry per index of the dimension, in order from its first");
    return;
  }
  int stride = 1;
  for (size_t k = depth + 1; k < t.dims.size(); ++k) stride *= t.dims[k];
  for (int i = 0; i < len; ++i) {
    const ast::Expr& e = *list.kids[i];
    if (depth + 1 < t.dims.size())
      fill_rows(d, e, t, depth + 1, offset + i * stride, data, building);
    else
      data[offset + i] = stored_constant(e, "an entry of a table");
  }
}

// The entries of table t (laid out for `d`), in the table's order; all 0 without a value.
std::vector<int64_t> Compiler::initial_entries(const ast::Decl& d, const VarInfo& t, bool building) {
  std::vector<int64_t> data(t.size(), 0);
  if (!d.value) return data;
  if (d.value->kind == ast::ExprKind::List) {
    fill_rows(d, *d.value, t, 0, 0, data, building);
  } else {
    int64_t v = stored_constant(
        *d.value, d.kind == ast::DeclKind::Const ? "a constant's initial value" : "a variable's initial value");
    std::fill(data.begin(), data.end(), v);
  }
  return data;
}

// Once the board is made: each `per site` list of a constant's literal has one entry a site.
void Compiler::check_literal_sites(const ast::Decl& d, const ast::Expr& list, const VarInfo& t, size_t depth) {
  if (depth >= t.dims.size()) return;
  int len = static_cast<int>(list.kids.size());
  if (t.dim_kinds[depth] == lang::DimKind::Site && len != t.dims[depth]) {
    diags.report(Code::eval_error, list.span,
                 fmt::format("this list has {} entr{}, but the board has {}", len, len == 1 ? "y" : "ies",
                             dimension_words(t, depth)),
                 "give one entry per site, in the order the board makes them");
    return;
  }
  for (auto& k : list.kids)
    if (k->kind == ast::ExprKind::List) check_literal_sites(d, *k, t, depth + 1);
}

}  // namespace keli::compile
