// The `display` lines (lang/displays.hpp): each names what it shows, and the name must be of the
// kind its form needs: a variable per site or an int variable per player (stores), a region,
// functions or tables per piece, or an int table of the dice in hand.
#include <fmt/format.h>

#include "check/checker_impl.hpp"

namespace keli::check {

namespace {

// A variable of one dimension, and that dimension's kind ("site", "player", "piece", "" a range).
bool one_dim_var(const Symbol& sym, const char* dim) {
  return sym.kind == SymKind::Var && sym.decl && sym.decl->dims.size() == 1 && sym.decl->dims[0].type == dim;
}

}  // namespace

lang::Display display_form(const Checked& ck, const ast::Decl& d) {
  if (d.names.size() == 2) return lang::Display::Pieces;
  if (d.type == "hand") return lang::Display::Hand;
  int s = ck.lookup(d.name);
  if (s >= 0 && one_dim_var(ck.syms[s], "player")) return lang::Display::Stores;
  if (s >= 0 && (ck.syms[s].kind == SymKind::Region || ck.syms[s].kind == SymKind::Track)) return lang::Display::Marks;
  return lang::Display::Values;
}

// `display pieces at F by G`: F gives a piece's site, G its owner (functions or tables per piece);
// `display hand VAR`: an int table per a range; `display NAME`: a variable per site, an int
// variable per player (drawn as stores), or a region.
void Checker::check_display(ast::Decl& d) {
  if (d.names.size() == 2) return check_display_pieces(d);
  int s = c_.lookup(d.name);
  auto unknown = [&] {
    diags_.report(Code::unknown_name, d.name_span, fmt::format("unknown name '{}'", d.name),
                  diag::suggest(d.name, global_names()));
  };
  if (s < 0) return unknown();
  Symbol& sym = c_.syms[s];
  sym.used = true;
  const auto& hand = lang::display_info(lang::Display::Hand);
  if (d.type == "hand") {
    if (one_dim_var(sym, "") && sym.type == Type::Int) return;
    diags_.report(Code::type_mismatch, d.name_span,
                  fmt::format("'{}' needs {} (the dice still to play, 0 once used), and '{}' is not one", hand.syntax,
                              hand.names, d.name),
                  "declare it 'var NAME: int per 0..N', as stdlib/dice.keli's 'die'");
    return;
  }
  if (one_dim_var(sym, "site")) return;
  if (one_dim_var(sym, "player")) {
    if (sym.type == Type::Int) return;
    diags_.report(Code::type_mismatch, d.name_span,
                  fmt::format("'display' draws a variable per player as stores of counts, and '{}' does not hold "
                              "an int",
                              d.name),
                  "show a store of counts: 'var NAME: int per player'");
    return;
  }
  if ((sym.kind == SymKind::Region || sym.kind == SymKind::Track) && sym.decl->dims.empty()) return;
  diags_.report(
      Code::type_mismatch, d.name_span,
      fmt::format("'display' needs {}, {} or {}, and '{}' is none of these",
                  lang::display_info(lang::Display::Values).names, lang::display_info(lang::Display::Stores).names,
                  lang::display_info(lang::Display::Marks).names, d.name),
      fmt::format("or write '{}' or '{}'", "display pieces at SITE_OF by OWNER_OF", hand.syntax));
}

void Checker::check_display_pieces(ast::Decl& d) {
  for (size_t i = 0; i < 2; ++i) {
    int s = c_.lookup(d.names[i]);
    bool ok = false;
    if (s >= 0) {
      Symbol& sym = c_.syms[s];
      sym.used = true;
      Type want = i == 0 ? Type::Site : Type::Player;
      bool right_type = sym.type == want || sym.type == Type::Int;
      if (sym.kind == SymKind::Def && sym.decl->formals.size() == 1 && sym.decl->formals[0].type == "piece" &&
          right_type)
        ok = true;
      if ((sym.kind == SymKind::Const || sym.kind == SymKind::Var) && sym.decl->dims.size() == 1 &&
          sym.decl->dims[0].type == "piece" && right_type)
        ok = true;
    }
    if (!ok)
      diags_.report(s < 0 ? Code::unknown_name : Code::type_mismatch, d.name_spans[i],
                    s < 0 ? fmt::format("unknown name '{}'", d.names[i])
                          : fmt::format("'{}' must give a {} for each piece", d.names[i], i == 0 ? "site" : "player"),
                    s < 0 ? diag::suggest(d.names[i], global_names())
                          : fmt::format("use a 'def {}(pc: piece): {}' or a table 'per piece'", d.names[i],
                                        i == 0 ? "site" : "player"));
  }
}

}  // namespace keli::check
