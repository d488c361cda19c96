// Text to AST: runs the PEGTL grammar into a parse tree, then turns that tree into ast::Module.
// Syntax errors become diagnostics (E001) with the position PEGTL reports; the grammar recovers from
// them (grammar/keli_recovery.hpp), so a file gives every syntax error and the AST of what parsed.
#include "ast/parse.hpp"

#include <fmt/format.h>

#include <tao/pegtl/contrib/parse_tree.hpp>

#include "keli_errors.hpp"

namespace keli::ast {
namespace g = keli::grammar;
namespace pt = tao::pegtl::parse_tree;
using Node = pt::node;

// Which grammar rules become parse-tree nodes. Expression levels fold away when they hold one child.
template <typename Rule>
using selector = pt::selector<
    Rule,
    pt::store_content::on<
        g::header, g::import_decl, g::about_decl, g::about_entry, g::param_decl, g::bool_type, g::int_type,
        g::int_set, g::range, g::enum_type, g::doc, g::players_decl, g::players_names, g::pieces_decl,
        g::const_decl, g::var_decl, g::region_decl, g::track_decl, g::type_name, g::init, g::dice_decl,
        g::faces, g::dice_copies, g::formal, g::formals, g::result_type, g::body_expr, g::def_decl,
        g::shape_decl, g::board_decl, g::board_call, g::event_decl, g::handler_params, g::guard, g::on_decl,
        g::setup_decl, g::move_param, g::param_filter, g::move_params, g::move_decl, g::otherwise_decl, g::chance_of,
        g::phase_decl, g::invariant_decl, g::limit_decl, g::display_decl, g::display_pieces, g::block, g::let_stmt, g::if_stmt,
        g::elif_part, g::else_part, g::while_stmt, g::for_stmt, g::for_filter, g::return_stmt, g::emit_stmt,
        g::note_stmt, g::add_stmt, g::finish_stmt, g::end_stmt, g::end_by, g::assign_stmt, g::assign_op,
        g::target, g::call_stmt, g::call_suffix, g::index_suffix, g::ident, g::integer, g::string_lit,
        g::kw_true, g::kw_false, g::list_lit, g::aggregate, g::agg_kind, g::agg_filter, g::variable, g::neg_op,
        g::not_op, g::mul_op, g::add_op, g::cmp_op, g::in_op, g::and_op, g::or_op, g::conditional,
        g::override_decl, g::extend_decl, g::override_rule>,
    pt::fold_one::on<g::postfix, g::unary, g::multiplicative, g::additive, g::comparison, g::negation,
                     g::conjunction, g::disjunction, g::primary, g::paren_expr, g::domain>>;

namespace {

class Builder {
 public:
  Builder(const SourceSet& src, int file, const std::vector<size_t>& error_bytes)
      : src_(src), file_(file), error_bytes_(error_bytes) {}

  Span span(const Node& n, size_t len) const {
    auto pos = n.begin();
    return Span{file_, static_cast<uint32_t>(pos.line), static_cast<uint32_t>(pos.column),
                static_cast<uint32_t>(len)};
  }
  // Tokens keep trailing blanks and comments in their content: measure the token itself.
  static std::string word(const Node& n) {
    std::string_view s = n.string_view();
    size_t i = 0;
    while (i < s.size() && (isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
    return std::string(s.substr(0, i));
  }
  static std::string op(const Node& n) {
    std::string_view s = n.string_view();
    size_t i = 0;
    while (i < s.size() && !isspace(static_cast<unsigned char>(s[i])) && s[i] != '#') ++i;
    return std::string(s.substr(0, i));
  }
  // A word the grammar accepted must be in the vocabulary's table; one that is not is a bug in
  // the grammar or the table, reported as an internal error rather than guessed.
  template <typename T>
  static T known(std::optional<T> v, const Node& n) {
    if (!v) throw std::logic_error(fmt::format("'{}' is not in the vocabulary's tables", op(n)));
    return *v;
  }
  // A node's text without the blanks and comments that trail it (tokens swallow them).
  static size_t content_length(std::string_view s) {
    size_t last = 0;
    bool in_string = false;
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (in_string) {
        if (c == '\\') ++i;
        else if (c == '"') in_string = false;
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
  std::pair<size_t, size_t> extent(const Node& n) const {  // line and column just past the end
    if (n.has_content()) {
      Span s = span_of(n);
      return {s.line, s.col + s.len};
    }
    if (n.children.empty()) return {n.begin().line, n.begin().column};
    return extent(*n.children.back());
  }
  Span span_of(const Node& n) const {
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
  std::string string_value(const Node& n) const {
    std::string_view s = n.string_view();
    std::string out;
    for (size_t i = 1; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] == '\\' && i + 1 < s.size()) {
        ++i;
        out += s[i] == 'n' ? '\n' : s[i];
      } else {
        out += s[i];
      }
    }
    return out;
  }

  ExprPtr make(ExprKind k, const Node& n) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->span = span_of(n);
    return e;
  }

  ExprPtr expr(const Node& n) {
    if (n.is_type<g::integer>()) {
      auto e = make(ExprKind::Int, n);
      std::string w = word(n);
      e->value = w.size() > 15 ? 999999999999999 : std::stoll(w);
      e->text = w;
      return e;
    }
    if (n.is_type<g::kw_true>() || n.is_type<g::kw_false>()) {
      auto e = make(ExprKind::Bool, n);
      e->value = n.is_type<g::kw_true>();
      e->span.len = e->value ? 4 : 5;
      return e;
    }
    if (n.is_type<g::string_lit>()) {
      auto e = make(ExprKind::Str, n);
      e->text = string_value(n);
      return e;
    }
    if (n.is_type<g::variable>() || n.is_type<g::ident>()) {
      auto e = make(ExprKind::Name, n);
      e->text = word(n);
      return e;
    }
    if (n.is_type<g::list_lit>()) {
      auto e = make(ExprKind::List, n);
      for (auto& k : n.children) e->kids.push_back(expr(*k));
      return e;
    }
    if (n.is_type<g::range>()) {
      auto e = make(ExprKind::Range, n);
      e->kids.push_back(expr(*n.children.at(0)));
      e->kids.push_back(expr(*n.children.at(1)));
      return e;
    }
    if (n.is_type<g::conditional>()) {
      auto e = make(ExprKind::Cond, n);
      for (auto& k : n.children) e->kids.push_back(expr(*k));
      return e;
    }
    if (n.is_type<g::aggregate>()) {
      auto e = make(ExprKind::Aggregate, n);
      e->agg = known(lang::find_aggregate(word(*n.children.at(0))), n);
      e->var = word(*n.children.at(1));
      e->var_span = span_of(*n.children.at(1));
      e->kids.push_back(expr(*n.children.at(2)));  // domain
      size_t i = 3;
      ExprPtr filter;
      if (n.children.at(i)->is_type<g::agg_filter>()) filter = expr(*n.children.at(i++)->children.at(0));
      e->kids.push_back(expr(*n.children.at(i)));  // body
      if (filter) e->kids.push_back(std::move(filter));
      return e;
    }
    if (n.is_type<g::postfix>()) {  // primary followed by calls and indexing, left to right
      ExprPtr cur = expr(*n.children.at(0));
      for (size_t i = 1; i < n.children.size(); ++i) {
        const Node& suf = *n.children[i];
        auto e = std::make_unique<Expr>();
        e->kind = suf.is_type<g::call_suffix>() ? ExprKind::Call : ExprKind::Index;
        e->span = cur->span;
        Span end = span_of(suf);
        if (end.line == e->span.line) e->span.len = end.col + end.len - e->span.col;
        e->kids.push_back(std::move(cur));
        for (auto& k : suf.children) e->kids.push_back(expr(*k));
        cur = std::move(e);
      }
      return cur;
    }
    if (n.is_type<g::unary>()) {
      auto e = make(ExprKind::Neg, n);
      e->op = lang::Operator::Neg;
      e->kids.push_back(expr(*n.children.at(1)));
      return e;
    }
    if (n.is_type<g::negation>()) {
      auto e = make(ExprKind::Not, n);
      e->op = lang::Operator::Not;
      e->kids.push_back(expr(*n.children.at(1)));
      return e;
    }
    if (n.is_type<g::multiplicative>() || n.is_type<g::additive>() || n.is_type<g::comparison>() ||
        n.is_type<g::conjunction>() || n.is_type<g::disjunction>()) {
      ExprPtr cur = expr(*n.children.at(0));
      for (size_t i = 1; i + 1 < n.children.size(); i += 2) {
        auto e = std::make_unique<Expr>();
        e->kind = ExprKind::Binary;
        e->op = known(lang::find_operator(op(*n.children[i]), 2), *n.children[i]);
        e->span = cur->span;
        e->kids.push_back(std::move(cur));
        e->kids.push_back(expr(*n.children[i + 1]));
        const Span& r = e->kids[1]->span;
        if (r.line == e->span.line && r.col + r.len > e->span.col) e->span.len = r.col + r.len - e->span.col;
        cur = std::move(e);
      }
      return cur;
    }
    // Anything else with one child (a folded level that kept a node) is transparent.
    if (n.children.size() == 1) return expr(*n.children[0]);
    throw std::logic_error(fmt::format("unexpected expression node {}", n.type));
  }

  Block block(const Node& n) {
    Block out;
    for (auto& k : n.children) out.push_back(stmt(*k));
    return out;
  }

  StmtPtr mk(StmtKind k, const Node& n) {
    auto s = std::make_unique<Stmt>();
    s->kind = k;
    s->span = span_of(n);
    return s;
  }

  StmtPtr stmt(const Node& n) {
    const auto& c = n.children;
    if (n.is_type<g::let_stmt>()) {
      auto s = mk(StmtKind::Let, n);
      s->name = word(*c.at(0));
      s->name_span = span_of(*c.at(0));
      s->exprs.push_back(expr(*c.at(1)));
      return s;
    }
    if (n.is_type<g::assign_stmt>()) {
      auto s = mk(StmtKind::Assign, n);
      const Node& t = *c.at(0);  // target: ident index_suffix*
      ExprPtr cur = expr(*t.children.at(0));
      for (size_t i = 1; i < t.children.size(); ++i) {
        auto e = std::make_unique<Expr>();
        e->kind = ExprKind::Index;
        e->span = cur->span;
        e->kids.push_back(std::move(cur));
        e->kids.push_back(expr(*t.children[i]->children.at(0)));
        cur = std::move(e);
      }
      s->assign = known(lang::find_assign(op(*c.at(1))), *c.at(1));
      s->exprs.push_back(std::move(cur));
      s->exprs.push_back(expr(*c.at(2)));
      return s;
    }
    if (n.is_type<g::if_stmt>()) {
      auto s = mk(StmtKind::If, n);
      s->exprs.push_back(expr(*c.at(0)));
      s->blocks.push_back(block(*c.at(1)));
      for (size_t i = 2; i < c.size(); ++i) {
        if (c[i]->is_type<g::elif_part>()) {
          s->exprs.push_back(expr(*c[i]->children.at(0)));
          s->blocks.push_back(block(*c[i]->children.at(1)));
        } else {
          s->blocks.push_back(block(*c[i]->children.at(0)));
          s->has_else = true;
        }
      }
      return s;
    }
    if (n.is_type<g::while_stmt>()) {
      auto s = mk(StmtKind::While, n);
      s->exprs.push_back(expr(*c.at(0)));
      s->blocks.push_back(block(*c.at(1)));
      return s;
    }
    if (n.is_type<g::for_stmt>()) {
      auto s = mk(StmtKind::For, n);
      s->name = word(*c.at(0));
      s->name_span = span_of(*c.at(0));
      s->exprs.push_back(expr(*c.at(1)));
      size_t i = 2;
      if (c.at(i)->is_type<g::for_filter>()) s->exprs.push_back(expr(*c.at(i++)->children.at(0)));
      s->blocks.push_back(block(*c.at(i)));
      return s;
    }
    if (n.is_type<g::return_stmt>()) {
      auto s = mk(StmtKind::Return, n);
      if (!c.empty()) s->exprs.push_back(expr(*c.at(0)));
      return s;
    }
    if (n.is_type<g::emit_stmt>() || n.is_type<g::call_stmt>()) {
      auto s = mk(n.is_type<g::emit_stmt>() ? StmtKind::Emit : StmtKind::Call, n);
      auto call = std::make_unique<Expr>();
      call->kind = ExprKind::Call;
      call->span = span_of(*c.at(0));
      call->kids.push_back(expr(*c.at(0)));
      for (auto& a : c.at(1)->children) call->kids.push_back(expr(*a));
      s->name = word(*c.at(0));
      s->name_span = span_of(*c.at(0));
      s->exprs.push_back(std::move(call));
      return s;
    }
    if (n.is_type<g::note_stmt>()) {
      auto s = mk(StmtKind::Note, n);
      s->text = string_value(*c.at(0));
      return s;
    }
    if (n.is_type<g::add_stmt>()) {
      auto s = mk(StmtKind::Add, n);
      s->exprs.push_back(expr(*c.at(0)));
      s->exprs.push_back(expr(*c.at(1)));
      return s;
    }
    if (n.is_type<g::finish_stmt>()) {
      auto s = mk(StmtKind::Finish, n);
      for (auto& k : c) s->exprs.push_back(expr(*k));
      return s;
    }
    if (n.is_type<g::end_stmt>()) {
      auto s = mk(StmtKind::EndGame, n);
      if (!c.empty()) {
        s->name = word(*c.at(0)->children.at(0));
        s->name_span = span_of(*c.at(0)->children.at(0));
      }
      return s;
    }
    throw std::logic_error(fmt::format("unexpected statement node {}", n.type));
  }

  std::vector<Formal> formals(const Node& n) {
    std::vector<Formal> out;
    for (auto& f : n.children) {
      Formal x;
      if (f->is_type<g::ident>()) {  // handler parameters are bare names
        x.name = word(*f);
        x.span = span_of(*f);
      } else {
        x.name = word(*f->children.at(0));
        x.span = span_of(*f->children.at(0));
        x.type = word(*f->children.at(1));
        x.type_span = span_of(*f->children.at(1));
      }
      out.push_back(std::move(x));
    }
    return out;
  }

  void dims(const Node& n, size_t from, Decl& d) {
    for (size_t i = from; i < n.children.size(); ++i) {
      const Node& k = *n.children[i];
      if (k.is_type<g::type_name>()) {
        Dim dim;
        dim.span = span_of(k);
        dim.type = word(k);
        d.dims.push_back(std::move(dim));
      } else if (k.is_type<g::range>()) {
        Dim dim;
        dim.span = span_of(k);
        dim.lo = expr(*k.children.at(0));
        dim.hi = expr(*k.children.at(1));
        d.dims.push_back(std::move(dim));
      } else if (k.is_type<g::init>()) {
        d.value = expr(*k.children.at(0));
      }
    }
  }

  Move move(const Node& node) {
    Move m;
    bool is_override = node.is_type<g::override_rule>();
    const Node& n = is_override ? *node.children.at(0) : node;
    m.is_override = is_override;
    const auto& c = n.children;
    m.name = word(*c.at(0));
    m.span = span_of(*c.at(0));
    size_t i = 1;
    if (n.is_type<g::otherwise_decl>()) {
      m.is_otherwise = true;
    } else {
      for (auto& p : c.at(i++)->children) {
        MoveParam mp;
        mp.name = word(*p->children.at(0));
        mp.span = span_of(*p->children.at(0));
        mp.domain = expr(*p->children.at(1));
        if (p->children.size() > 2) mp.filter = expr(*p->children.at(2)->children.at(0));
        m.params.push_back(std::move(mp));
      }
      if (c.at(i)->is_type<g::guard>()) m.guard = expr(*c.at(i++)->children.at(0));
    }
    m.body = block(*c.at(i));
    return m;
  }

  void decl(const Node& node, Module& mod) {
    Decl d;
    d.file = file_;
    for (size_t b : error_bytes_) d.broken = d.broken || (b >= node.begin().byte && b < node.end().byte);
    if (node.is_type<g::override_decl>()) d.is_override = true;
    const Node& n = d.is_override ? *node.children.at(0) : node;
    d.span = span_of(node);
    const auto& c = n.children;
    auto named = [&](size_t i) {
      d.name = word(*c.at(i));
      d.name_span = span_of(*c.at(i));
    };
    if (n.is_type<g::import_decl>()) {
      d.kind = DeclKind::Import;
      d.name = string_value(*c.at(0));
      d.name_span = span_of(*c.at(0));
    } else if (n.is_type<g::about_decl>()) {
      d.kind = DeclKind::About;
      for (auto& e : c) d.entries.emplace_back(word(*e->children.at(0)), string_value(*e->children.at(1)));
    } else if (n.is_type<g::param_decl>()) {
      d.kind = DeclKind::Param;
      named(0);
      size_t i = 1;
      if (c.at(1)->is_type<g::bool_type>() || c.at(1)->is_type<g::int_type>() || c.at(1)->is_type<g::enum_type>()) {
        const Node& t = *c.at(i++);
        if (t.is_type<g::bool_type>()) {
          d.ptype = ParamType::Bool;
        } else if (t.is_type<g::enum_type>()) {
          d.ptype = ParamType::Enum;
          for (auto& k : t.children) {
            d.choices.push_back(word(*k));
            d.choice_spans.push_back(span_of(*k));
          }
        } else {
          d.ptype = ParamType::Int;
          if (!t.children.empty()) {
            const Node& lim = *t.children.at(0);
            if (lim.is_type<g::range>()) {
              d.lo = expr(*lim.children.at(0));
              d.hi = expr(*lim.children.at(1));
            } else {
              for (auto& k : lim.children) d.allowed.push_back(expr(*k));
            }
          }
        }
      } else {
        d.override_only = true;  // `param NAME = VALUE`: a variant sets its base's parameter
      }
      d.value = expr(*c.at(i++));
      if (c.size() > i) d.doc = string_value(*c.at(i));
    } else if (n.is_type<g::players_decl>() || n.is_type<g::pieces_decl>()) {
      d.kind = n.is_type<g::players_decl>() ? DeclKind::Players : DeclKind::Pieces;
      d.name = d.kind == DeclKind::Players ? "players" : "pieces";
      d.value = expr(*c.at(0));
      if (c.size() > 1)
        for (auto& k : c.at(1)->children) {
          d.names.push_back(word(*k));
          d.name_spans.push_back(span_of(*k));
        }
    } else if (n.is_type<g::const_decl>() || n.is_type<g::var_decl>()) {
      d.kind = n.is_type<g::const_decl>() ? DeclKind::Const : DeclKind::Var;
      named(0);
      d.type = word(*c.at(1));
      d.type_span = span_of(*c.at(1));
      dims(n, 2, d);
    } else if (n.is_type<g::region_decl>() || n.is_type<g::track_decl>()) {
      d.kind = n.is_type<g::region_decl>() ? DeclKind::Region : DeclKind::Track;
      named(0);
      dims(n, 1, d);
    } else if (n.is_type<g::dice_decl>()) {
      d.kind = DeclKind::Dice;
      named(0);
      if (c.at(1)->is_type<g::dice_copies>()) {
        const Node& dc = *c.at(1);
        d.copies = expr(*dc.children.at(0));
        d.faces.emplace_back();
        for (auto& f : dc.children.at(1)->children) d.faces.back().push_back(expr(*f));
      } else {
        for (size_t i = 1; i < c.size(); ++i) {
          d.faces.emplace_back();
          for (auto& f : c[i]->children) d.faces.back().push_back(expr(*f));
        }
      }
    } else if (n.is_type<g::def_decl>() || n.is_type<g::shape_decl>()) {
      d.kind = n.is_type<g::def_decl>() ? DeclKind::Def : DeclKind::Shape;
      named(0);
      d.formals = formals(*c.at(1));
      size_t i = 2;
      if (c.at(i)->is_type<g::result_type>()) {
        d.type = word(*c.at(i)->children.at(0));
        d.type_span = span_of(*c.at(i)->children.at(0));
        ++i;
      }
      if (c.at(i)->is_type<g::body_expr>()) {
        d.value = expr(*c.at(i)->children.at(0));
      } else {
        d.body = block(*c.at(i));
        d.has_body_block = true;
      }
    } else if (n.is_type<g::board_decl>()) {
      d.kind = DeclKind::Board;
      d.name = "board";
      if (c.at(0)->is_type<g::block>()) {
        d.body = block(*c.at(0));
        d.has_body_block = true;
      } else {
        const Node& bc = *c.at(0);
        auto call = std::make_unique<Expr>();
        call->kind = ExprKind::Call;
        call->span = span_of(*bc.children.at(0));
        call->kids.push_back(expr(*bc.children.at(0)));
        for (auto& a : bc.children.at(1)->children) call->kids.push_back(expr(*a));
        d.value = std::move(call);
      }
    } else if (n.is_type<g::event_decl>()) {
      d.kind = DeclKind::Event;
      named(0);
      d.formals = formals(*c.at(1));
    } else if (n.is_type<g::on_decl>()) {
      d.kind = DeclKind::On;
      named(0);
      d.formals = formals(*c.at(1));
      size_t i = 2;
      if (c.at(i)->is_type<g::guard>()) d.guard = expr(*c.at(i++)->children.at(0));
      d.body = block(*c.at(i));
      d.has_body_block = true;
    } else if (n.is_type<g::setup_decl>()) {
      d.kind = DeclKind::Setup;
      d.name = "setup";
      d.body = block(*c.at(0));
      d.has_body_block = true;
    } else if (n.is_type<g::phase_decl>() || n.is_type<g::extend_decl>()) {
      d.kind = n.is_type<g::phase_decl>() ? DeclKind::Phase : DeclKind::Extend;
      named(0);
      for (size_t i = 1; i < c.size(); ++i) {
        if (c[i]->is_type<g::chance_of>()) {
          d.value = expr(*c[i]->children.at(0));
        } else if (c[i]->is_type<g::block>()) {
          d.body = block(*c[i]);
          d.has_body_block = true;
        } else {
          d.moves.push_back(move(*c[i]));
        }
      }
    } else if (n.is_type<g::invariant_decl>()) {
      d.kind = DeclKind::Invariant;
      d.doc = string_value(*c.at(0));
      d.name = d.doc;
      d.value = expr(*c.at(1));
    } else if (n.is_type<g::limit_decl>()) {
      d.kind = DeclKind::Limit;
      named(0);
      d.value = expr(*c.at(1));
    } else if (n.is_type<g::display_decl>()) {
      d.kind = DeclKind::Display;
      if (c.at(0)->is_type<g::display_pieces>()) {  // display pieces at F by G
        d.name = "pieces";
        d.name_span = span_of(*c.at(0));
        for (auto& k : c.at(0)->children) {
          d.names.push_back(word(*k));
          d.name_spans.push_back(span_of(*k));
        }
      } else {
        named(0);
      }
    } else {
      throw std::logic_error(fmt::format("unexpected declaration node {}", n.type));
    }
    mod.decls.push_back(std::move(d));
  }

  Module module(const Node& root, diag::Diagnostics& diags) {
    Module m;
    m.file = file_;
    bool seen_header = false;
    for (auto& k : root.children) {
      if (k->is_type<g::header>() && seen_header) {
        diags.report(diag::Code::duplicate_header, span_of(*k), "a file may extend at most one base game: this is a second 'game' line",
                     "a variant names its one base: game \"NAME\" extends \"base.keli\"");
        continue;
      }
      if (k->is_type<g::header>()) {
        seen_header = true;
        m.game_name = string_value(*k->children.at(0));
        m.game_span = span_of(*k->children.at(0));
        if (k->children.size() > 1) {
          m.extends = string_value(*k->children.at(1));
          m.extends_span = span_of(*k->children.at(1));
        }
      } else {
        decl(*k, m);
      }
    }
    return m;
  }

 private:
  const SourceSet& src_;
  int file_;
  const std::vector<size_t>& error_bytes_;  // where recovered syntax errors stopped the parser
};

}  // namespace

std::optional<Module> parse_module(const SourceSet& src, int file, diag::Diagnostics& diags) {
  const SourceFile& f = src.file(file);
  tao::pegtl::memory_input in(f.text, f.path);
  g::syntax_log log;
  try {
    auto root = pt::parse<g::file, selector, tao::pegtl::nothing, g::control>(in, log);
    if (!root) {
      diags.report(diag::Code::syntax, Span{file, 1, 1, 0}, "the file could not be parsed");
      return std::nullopt;
    }
    std::vector<size_t> error_bytes;
    for (const auto& e : log.errors) error_bytes.push_back(e.byte);
    Builder b(src, file, error_bytes);
    Module m = b.module(*root, diags);
    report_syntax_errors(src, file, log, m, diags);
    return m;
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
