// Text to AST: runs the PEGTL grammar into a parse tree, then turns that tree into ast::Module
// (the builder's expressions, statements and declarations are in parse_expr/stmt/decl.cpp).
// Syntax errors become diagnostics (E001) with the position PEGTL reports; the grammar recovers from
// them (grammar/keli_recovery.hpp), so a file gives every syntax error and the AST of what parsed.
#include "ast/parse.hpp"

#include <fmt/format.h>

#include <tao/pegtl/contrib/parse_tree.hpp>

#include "ast/parse_builder.hpp"
#include "keli_errors.hpp"
#include "lang/limits.hpp"

namespace keli::ast {
namespace pt = tao::pegtl::parse_tree;
using parse_detail::Builder;
using parse_detail::Node;
namespace g = keli::grammar;

// Which grammar rules become parse-tree nodes. Expression levels fold away when they hold one child.
template <typename Rule>
using selector = pt::selector<
    Rule,
    pt::store_content::on<
        g::header, g::import_decl, g::about_decl, g::about_entry, g::param_decl, g::bool_type, g::int_type, g::int_set,
        g::range, g::enum_type, g::doc, g::players_decl, g::players_names, g::pieces_decl, g::const_decl, g::var_decl,
        g::region_decl, g::track_decl, g::type_name, g::or_none, g::init, g::dice_decl, g::dice_order, g::faces,
        g::dice_copies, g::formal, g::formal_default, g::formals, g::result_type, g::body_expr, g::def_decl,
        g::fact_decl, g::shape_decl, g::board_decl, g::board_call, g::event_decl, g::handler_params, g::guard,
        g::on_decl, g::setup_decl, g::move_param, g::param_filter, g::move_params, g::reads_clause, g::reading,
        g::read_text, g::read_hole, g::read_each, g::read_join, g::read_if, g::read_if_text, g::read_branch,
        g::read_alt, g::move_decl, g::otherwise_decl, g::chance_of, g::phase_decl, g::invariant_decl, g::limit_decl,
        g::display_decl, g::display_pieces, g::display_hand, g::repetitions_decl, g::compared_part, g::compared_when,
        g::block, g::let_stmt, g::if_stmt, g::elif_part, g::else_part, g::while_stmt, g::for_stmt, g::for_filter,
        g::loop_while, g::return_stmt, g::emit_stmt, g::note_stmt, g::add_stmt, g::remove_stmt, g::clear_stmt,
        g::suppose_stmt, g::coll_type, g::kw_list, g::kw_set, g::finish_stmt, g::end_stmt, g::end_by, g::end_points,
        g::assign_stmt, g::assign_op, g::target, g::call_stmt, g::call_suffix, g::index_suffix, g::ident, g::integer,
        g::string_lit, g::kw_true, g::kw_false, g::list_lit, g::aggregate, g::agg_kind, g::agg_filter, g::variable,
        g::neg_op, g::not_op, g::mul_op, g::add_op, g::cmp_op, g::in_op, g::and_op, g::or_op, g::conditional,
        g::override_decl, g::extend_decl, g::override_rule, g::remove_decl, g::removed_handler, g::removed_invariant,
        g::remove_rule, g::removed_rule, g::ai_decl, g::ai_item, g::safety_decl, g::safety_item, g::safety_override,
        g::ai_setting, g::end_turn_stmt, g::pass_turn_stmt, g::extra_turn_stmt, g::turn_order_decl, g::turn_backwards,
        g::turn_skips, g::param_distinct, g::directions_decl, g::direction_item, g::direction_step, g::coordinates_decl,
        g::coordinates_skip>,
    pt::fold_one::on<g::postfix, g::unary, g::multiplicative, g::additive, g::comparison, g::negation, g::conjunction,
                     g::disjunction, g::primary, g::paren_expr, g::domain>>;

namespace parse_detail {

bool is_expression(const Node& n) {
  return n.is_type<g::integer>() || n.is_type<g::kw_true>() || n.is_type<g::kw_false>() || n.is_type<g::string_lit>() ||
         n.is_type<g::variable>() || n.is_type<g::list_lit>() || n.is_type<g::aggregate>() || n.is_type<g::postfix>() ||
         n.is_type<g::unary>() || n.is_type<g::multiplicative>() || n.is_type<g::additive>() ||
         n.is_type<g::comparison>() || n.is_type<g::negation>() || n.is_type<g::conjunction>() ||
         n.is_type<g::disjunction>() || n.is_type<g::conditional>() || n.is_type<g::range>();
}

std::vector<const Node*> expressions(const Node& n) {
  std::vector<const Node*> out;
  for (const auto& k : n.children)
    if (is_expression(*k)) out.push_back(k.get());
  return out;
}

const Node& expression(const Node& n, size_t i) {
  for (const auto& k : n.children)
    if (is_expression(*k) && i-- == 0) return *k;
  throw std::logic_error(fmt::format("a {} node lacks an expression child", n.type));
}

// Tokens keep trailing blanks and comments in their content: measure the token itself.
std::string Builder::word(const Node& n) {
  std::string_view s = n.string_view();
  size_t i = 0;
  while (i < s.size() && (isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  return std::string(s.substr(0, i));
}

// A value's type as written: `site`, or `site or none` however it is spaced.
std::string Builder::type_word(const Node& n) {
  for (const auto& k : n.children)
    if (k->is_type<g::or_none>()) return word(n) + " or none";
  return word(n);
}

std::string Builder::op(const Node& n) {
  std::string_view s = n.string_view();
  size_t i = 0;
  while (i < s.size() && !isspace(static_cast<unsigned char>(s[i])) && s[i] != '#') ++i;
  return std::string(s.substr(0, i));
}

// A node's text without the blanks and comments that trail it (tokens swallow them).
size_t Builder::content_length(std::string_view s) {
  size_t last = 0;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      last = i + 1;
    } else if (c == '#') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '"') {
      in_string = true;
      last = i + 1;
    } else if (!isspace(static_cast<unsigned char>(c))) {
      last = i + 1;
    }
  }
  return last;
}

// Nodes folded by the selector keep no content: their extent is that of their children.
std::pair<size_t, size_t> Builder::extent(const Node& n) const {  // line and column just past the end
  if (n.has_content()) {
    Span s = span_of(n);
    return {s.line, s.col + s.len};
  }
  if (n.children.empty()) return {n.begin().line, n.begin().column};
  return extent(*n.children.back());
}

Span Builder::span_of(const Node& n) const {
  if (!n.has_content()) {
    auto pos = n.begin();
    auto [line, col] = extent(n);
    uint32_t len = line == pos.line && col > pos.column ? static_cast<uint32_t>(col - pos.column) : 1;
    return Span{file_, static_cast<uint32_t>(pos.line), static_cast<uint32_t>(pos.column), len};
  }
  std::string_view s = n.string_view();
  size_t len = content_length(s);
  if (n.is_type<g::ident>() || n.is_type<g::variable>() || n.is_type<g::integer>()) len = word(n).size();
  auto pos = n.begin();
  // spans end on the first line for the caret
  std::string_view first = s.substr(0, len);
  size_t nl = first.find('\n');
  if (nl != std::string_view::npos) len = nl;
  return Span{file_, static_cast<uint32_t>(pos.line), static_cast<uint32_t>(pos.column), static_cast<uint32_t>(len)};
}

std::string unescaped(std::string_view raw, bool to_quote) {
  std::string out;
  for (size_t i = 0; i < raw.size() && !(to_quote && raw[i] == '"'); ++i) {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      ++i;
      out += raw[i] == 'n' ? '\n' : raw[i];
    } else {
      out += raw[i];
    }
  }
  return out;
}

std::string Builder::string_value(const Node& n) { return unescaped(n.string_view().substr(1), true); }

Module Builder::module(const Node& root, diag::Diagnostics& diags) {
  Module m;
  m.file = file_;
  bool seen_header = false;
  for (auto& k : root.children) {
    if (k->is_type<g::header>() && seen_header) {
      diags.report(diag::Code::duplicate_header, span_of(*k),
                   "a file may extend at most one base game: this is a second 'game' line",
                   "a variant names its one base: game \"NAME\" extends \"base.keli\"");
      continue;
    }
    if (k->is_type<g::header>()) {
      seen_header = true;
      auto strings = children<g::string_lit>(*k);  // the game's name, then the base it extends
      m.game_name = string_value(*strings.at(0));
      m.game_span = span_of(*strings.at(0));
      if (strings.size() > 1) {
        m.extends = string_value(*strings.at(1));
        m.extends_span = span_of(*strings.at(1));
      }
    } else {
      decl(*k, m);
    }
  }
  m.uses_turns = uses_turns_;
  m.declares_turn_order = declares_turn_order_;
  m.uses_extra_turns = uses_extra_turns_;
  return m;
}

}  // namespace parse_detail

std::optional<Module> parse_module(const SourceSet& src, int file, diag::Diagnostics& diags) {
  const SourceFile& f = src.file(file);
  tao::pegtl::memory_input in(f.text, f.path);
  g::syntax_log log;
  log.max_depth = lang::kMaxNesting;
  try {
    auto root = pt::parse<g::file, Node, selector, tao::pegtl::nothing, g::control>(in, log);
    if (!root) {
      diags.report(diag::Code::syntax, Span{file, 1, 1, 0}, "the file could not be parsed");
      return std::nullopt;
    }
    std::vector<size_t> error_bytes;
    for (const auto& e : log.errors) error_bytes.push_back(e.byte);
    Builder b(file, error_bytes);
    Module m = b.module(*root, diags);
    report_syntax_errors(src, file, log, m, diags);
    return m;
  } catch (const g::too_deep& e) {  // the parser's own recursion is bounded: the parse stops here
    diags.report(diag::Code::too_deep, Span{file, static_cast<uint32_t>(e.line), static_cast<uint32_t>(e.column), 1},
                 fmt::format("brackets, blocks, conditionals and prefix operators nest more than {} deep here "
                             "(kMaxNesting)",
                             lang::kMaxNesting),
                 "name the inner parts with 'let' or 'def'");
    return std::nullopt;
  } catch (const parse_detail::TooDeep& e) {
    diags.report(diag::Code::too_deep, e.span,
                 fmt::format("this expression is more than {} operations deep (kMaxNesting); each operator of a "
                             "chain such as 'a + b + c' is one level",
                             lang::kMaxNesting),
                 "split it: name parts with 'let' or 'def', or sum over a range with 'sum(i in A..B: ...)'");
    return std::nullopt;
  } catch (const tao::pegtl::parse_error& e) {  // an error no recovery point could take
    const auto& pos = e.positions().front();
    log.errors.push_back({std::string(e.message()), pos.byte, pos.line, pos.column, pos.byte});
    Module m;
    m.file = file;
    report_syntax_errors(src, file, log, m, diags);
    return std::nullopt;
  }
}

}  // namespace keli::ast
