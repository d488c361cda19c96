// Parse tree to AST, declarations: decl() opens the Decl (file, span, override, broken) and one
// function per kind of declaration node fills the rest.
#include "ast/parse_builder.hpp"
#include "lang/search_settings.hpp"

namespace keli::ast::parse_detail {

void Builder::decl(const Node& node, Module& mod) {
  if (node.is_type<g::ai_decl>()) return ai_decl(node, mod);
  if (node.is_type<g::safety_decl>()) return safety_decl(node, mod);
  if (node.is_type<g::turn_order_decl>()) return turn_order_decl(node, mod, false, span_of(node));
  if (node.is_type<g::override_decl>() && node.children.at(0)->is_type<g::turn_order_decl>())
    return turn_order_decl(*node.children.at(0), mod, true, span_of(node));
  Decl d;
  d.file = file_;
  for (size_t b : error_bytes_) d.broken = d.broken || (b >= node.begin().byte && b < node.end().byte);
  if (node.is_type<g::override_decl>()) d.is_override = true;
  const Node& n = d.is_override ? *node.children.at(0) : node;  // override wraps the one it replaces
  d.span = span_of(node);
  declaration(n, d);
  mod.decls.push_back(std::move(d));
}

// `ai { ... }`: each definition is a Def read by the computer players only; each setting
// `KEY VALUE` is the definition `search_KEY(): int = VALUE` the players have always read.
void Builder::ai_decl(const Node& node, Module& mod) {
  for (const Node* item : children<g::ai_item>(node)) {
    Decl d;
    d.file = file_;
    for (size_t b : error_bytes_) d.broken = d.broken || (b >= item->begin().byte && b < item->end().byte);
    d.is_override = item->string_view().substr(0, 8) == "override";
    d.span = span_of(*item);
    d.for_ai = true;
    if (const Node* def = optional_child<g::def_decl>(*item)) {
      def_decl(*def, d);
    } else {
      const Node& setting = child<g::ai_setting>(*item);
      d.kind = DeclKind::Def;
      named(setting, d);
      d.ai_setting = d.name;
      d.name = std::string(lang::kSearchSettingPrefix) + d.name;
      d.type = "int";
      d.type_span = d.name_span;
      d.value = expr(expression(setting));
    }
    mod.decls.push_back(std::move(d));
  }
}

// `safety { ... }`: each entry is the Limit or Param it would be outside the block, marked.
void Builder::safety_decl(const Node& node, Module& mod) {
  for (const Node* item : children<g::safety_item>(node)) {
    Decl d;
    d.file = file_;
    for (size_t b : error_bytes_) d.broken = d.broken || (b >= item->begin().byte && b < item->end().byte);
    const Node* entry = item->children.at(0).get();
    d.is_override = entry->is_type<g::safety_override>();
    d.span = span_of(*item);
    d.for_safety = true;
    declaration(d.is_override ? *entry->children.at(0) : *entry, d);
    mod.decls.push_back(std::move(d));
  }
}

void Builder::declaration(const Node& n, Decl& d) {
  if (n.is_type<g::import_decl>()) return import_decl(n, d);
  if (n.is_type<g::about_decl>()) return about_decl(n, d);
  if (n.is_type<g::param_decl>()) return param_decl(n, d);
  if (n.is_type<g::players_decl>() || n.is_type<g::pieces_decl>()) return count_decl(n, d);
  if (n.is_type<g::const_decl>() || n.is_type<g::var_decl>()) return storage_decl(n, d);
  if (n.is_type<g::region_decl>() || n.is_type<g::track_decl>()) return place_decl(n, d);
  if (n.is_type<g::dice_decl>()) return dice_decl(n, d);
  if (n.is_type<g::def_decl>() || n.is_type<g::shape_decl>() || n.is_type<g::fact_decl>()) return def_decl(n, d);
  if (n.is_type<g::board_decl>()) return board_decl(n, d);
  if (n.is_type<g::event_decl>()) return event_decl(n, d);
  if (n.is_type<g::on_decl>()) return on_decl(n, d);
  if (n.is_type<g::setup_decl>()) return setup_decl(n, d);
  if (n.is_type<g::phase_decl>() || n.is_type<g::extend_decl>()) return phase_decl(n, d);
  if (n.is_type<g::invariant_decl>()) return invariant_decl(n, d);
  if (n.is_type<g::limit_decl>()) return limit_decl(n, d);
  if (n.is_type<g::display_decl>()) return display_decl(n, d);
  if (n.is_type<g::repetitions_decl>()) return repetitions_decl(n, d);
  if (n.is_type<g::directions_decl>() || n.is_type<g::coordinates_decl>()) return geometry_decl(n, d);
  if (n.is_type<g::remove_decl>()) return remove_decl(n, d);
  throw std::logic_error(fmt::format("unexpected declaration node {}", n.type));
}

// The declared name: the declaration's first identifier.
void Builder::named(const Node& n, Decl& d) {
  const Node& name_node = child<g::ident>(n);
  d.name = word(name_node);
  d.name_span = span_of(name_node);
}

void Builder::import_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Import;
  const Node& path = child<g::string_lit>(n);
  d.name = string_value(path);
  d.name_span = span_of(path);
}

void Builder::about_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::About;
  for (const Node* e : children<g::about_entry>(n))
    d.entries.emplace_back(word(child<g::ident>(*e)), string_value(child<g::string_lit>(*e)));
}

// param NAME: TYPE = DEFAULT "doc"; without a type, a variant sets its base's parameter.
void Builder::param_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Param;
  named(n, d);
  if (const Node* t = optional_child<g::bool_type>(n))
    param_type(*t, d);
  else if (const Node* ti = optional_child<g::int_type>(n))
    param_type(*ti, d);
  else if (const Node* te = optional_child<g::enum_type>(n))
    param_type(*te, d);
  else
    d.override_only = true;  // `param NAME = VALUE`: a variant sets its base's parameter
  d.value = expr(expression(n));
  if (const Node* doc = optional_child<g::doc>(n)) d.doc = string_value(*doc);
}

void Builder::param_type(const Node& t, Decl& d) {
  if (t.is_type<g::bool_type>()) {
    d.ptype = ParamType::Bool;
  } else if (t.is_type<g::enum_type>()) {
    d.ptype = ParamType::Enum;
    for (const Node* k : children<g::ident>(t)) {
      d.choices.push_back(word(*k));
      d.choice_spans.push_back(span_of(*k));
    }
  } else {
    d.ptype = ParamType::Int;
    if (const Node* r = optional_child<g::range>(t)) {
      d.lo = expr(expression(*r, 0));
      d.hi = expr(expression(*r, 1));
    } else if (const Node* set = optional_child<g::int_set>(t)) {
      for (const Node* k : expressions(*set)) d.allowed.push_back(expr(*k));
    }
  }
}

void Builder::count_decl(const Node& n, Decl& d) {  // players N named A, B; pieces N
  d.kind = n.is_type<g::players_decl>() ? DeclKind::Players : DeclKind::Pieces;
  d.name = d.kind == DeclKind::Players ? "players" : "pieces";
  d.value = expr(expression(n));
  if (const Node* names = optional_child<g::players_names>(n))
    for (const Node* k : children<g::ident>(*names)) {
      d.names.push_back(word(*k));
      d.name_spans.push_back(span_of(*k));
    }
}

void Builder::storage_decl(const Node& n, Decl& d) {  // const/var NAME: TYPE per DIM... = INIT
  d.kind = n.is_type<g::const_decl>() ? DeclKind::Const : DeclKind::Var;
  named(n, d);
  const Node& type = child<g::type_name>(n);
  d.type = type_word(type);
  d.type_span = span_of(type);
  dims(n, &type, d);
}

void Builder::place_decl(const Node& n, Decl& d) {  // region/track NAME per DIM...
  d.kind = n.is_type<g::region_decl>() ? DeclKind::Region : DeclKind::Track;
  named(n, d);
  dims(n, nullptr, d);
}

// dice NAME = [ordered] [faces], [faces]... or N of [faces]: one list of faces per die.
void Builder::dice_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Dice;
  named(n, d);
  d.ordered = optional_child<g::dice_order>(n) != nullptr;
  if (const Node* dc = optional_child<g::dice_copies>(n)) {
    d.copies = expr(expression(*dc));
    d.faces.emplace_back();
    for (const Node* f : expressions(child<g::faces>(*dc))) d.faces.back().push_back(expr(*f));
  } else {
    for (const Node* die : children<g::faces>(n)) {
      d.faces.emplace_back();
      for (const Node* f : expressions(*die)) d.faces.back().push_back(expr(*f));
    }
  }
}

// def/shape/fact NAME(FORMALS): TYPE = EXPR or { ... }; a fact is a Def the engine keeps.
void Builder::def_decl(const Node& n, Decl& d) {
  d.kind = n.is_type<g::shape_decl>() ? DeclKind::Shape : DeclKind::Def;
  d.is_fact = n.is_type<g::fact_decl>();
  named(n, d);
  d.formals = formals(child<g::formals>(n));
  if (const Node* r = optional_child<g::result_type>(n)) {
    const Node& type = child<g::type_name>(*r);
    d.type = type_word(type);
    d.type_span = span_of(type);
  }
  if (const Node* b = optional_child<g::body_expr>(n))
    d.value = expr(expression(*b));
  else
    body(n, d);
}

void Builder::board_decl(const Node& n, Decl& d) {  // board { ... } or board SHAPE(ARGS)
  d.kind = DeclKind::Board;
  d.name = "board";
  if (optional_child<g::block>(n)) return body(n, d);
  const Node& bc = child<g::board_call>(n);
  const Node& callee = child<g::ident>(bc);
  d.value = call(callee, child<g::call_suffix>(bc), span_of(callee));
}

void Builder::event_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Event;
  named(n, d);
  d.formals = formals(child<g::formals>(n));
}

void Builder::on_decl(const Node& n, Decl& d) {  // on EVENT(NAMES) when GUARD { ... }
  d.kind = DeclKind::On;
  named(n, d);
  d.formals = formals(child<g::handler_params>(n));
  if (const Node* gd = optional_child<g::guard>(n)) d.guard = expr(expression(*gd));
  body(n, d);
}

void Builder::setup_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Setup;
  d.name = "setup";
  body(n, d);
}

// phase NAME { rules } or phase NAME chance EXPR { ... }; extend phase NAME { rules }.
void Builder::phase_decl(const Node& n, Decl& d) {
  d.kind = n.is_type<g::phase_decl>() ? DeclKind::Phase : DeclKind::Extend;
  named(n, d);
  for (const auto& k : n.children) {
    if (k->is_type<g::ident>()) continue;  // the name
    if (k->is_type<g::chance_of>()) {
      d.value = expr(expression(*k));
    } else if (k->is_type<g::block>()) {
      d.body = block(*k);
      d.has_body_block = true;
    } else {
      d.moves.push_back(move(*k));
    }
  }
}

void Builder::invariant_decl(const Node& n, Decl& d) {  // invariant [NAME] "doc": EXPR
  d.kind = DeclKind::Invariant;
  d.doc = string_value(child<g::string_lit>(n));
  d.name = d.doc;  // a variant names it by its text, or by its NAME when it has one
  d.name_span = span_of(child<g::string_lit>(n));
  if (const Node* name = optional_child<g::ident>(n)) {
    d.name = word(*name);
    d.name_span = span_of(*name);
  }
  d.value = expr(*n.children.back());  // the expression follows the doc (and may itself be a string)
}

// remove on EVENT | remove invariant NAME | remove invariant "text"
void Builder::remove_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Remove;
  const Node& what = *n.children.at(0);
  d.removes = what.is_type<g::removed_handler>() ? DeclKind::On : DeclKind::Invariant;
  const Node& name = *what.children.at(0);
  d.name = name.is_type<g::string_lit>() ? string_value(name) : word(name);
  d.name_span = span_of(name);
}

void Builder::limit_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Limit;
  named(n, d);
  d.value = expr(expression(n));
}

void Builder::display_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Display;
  if (const Node* dp = optional_child<g::display_pieces>(n)) {  // display pieces at F by G
    d.name = "pieces";
    d.name_span = span_of(*dp);
    for (const Node* k : children<g::ident>(*dp)) {
      d.names.push_back(word(*k));
      d.name_spans.push_back(span_of(*k));
    }
  } else if (const Node* hand = optional_child<g::display_hand>(n)) {  // display hand VAR
    named(*hand, d);
    d.type = "hand";
    d.type_span = span_of(*hand);
  } else {
    named(n, d);
  }
}

// repetitions compare PART [when COND], ...
void Builder::repetitions_decl(const Node& n, Decl& d) {
  d.kind = DeclKind::Repetitions;
  d.name = "repetitions compare";
  d.name_span = span_of(n);
  for (const Node* part : children<g::compared_part>(n)) {
    const Node& k = child<g::ident>(*part);
    d.names.push_back(word(k));
    d.name_spans.push_back(span_of(k));
    const Node* w = optional_child<g::compared_when>(*part);
    d.part_when.push_back(w ? expr(expression(*w)) : nullptr);
  }
}

// directions ITEM, ... (ITEM: NAME or NAME(dx, dy)); coordinates from EDGE [without LETTER]
void Builder::geometry_decl(const Node& n, Decl& d) {
  const bool directions = n.is_type<g::directions_decl>();
  d.kind = directions ? DeclKind::Directions : DeclKind::Coordinates;
  d.name = directions ? "directions" : "coordinates";
  d.name_span = span_of(n);
  auto add_name = [&](const Node& k) {
    d.names.push_back(word(k));
    d.name_spans.push_back(span_of(k));
  };
  if (!directions) {
    add_name(child<g::ident>(n));
    if (const Node* skip = optional_child<g::coordinates_skip>(n)) add_name(child<g::ident>(*skip));
    return;
  }
  for (const Node* item : children<g::direction_item>(n)) {
    add_name(child<g::ident>(*item));
    d.faces.emplace_back();
    if (const Node* step = optional_child<g::direction_step>(*item))
      for (const Node* e : expressions(*step)) d.faces.back().push_back(expr(*e));
  }
}

void Builder::body(const Node& n, Decl& d) {  // the declaration's block of statements
  d.body = block(child<g::block>(n));
  d.has_body_block = true;
}

std::vector<Formal> Builder::formals(const Node& n) {
  std::vector<Formal> out;
  for (auto& f : n.children) {
    Formal x;
    const Node& name_node = f->is_type<g::ident>() ? *f : child<g::ident>(*f);  // handler parameters are bare names
    x.name = word(name_node);
    x.span = span_of(name_node);
    if (f->is_type<g::formal>()) {
      const Node& type = child<g::type_name>(*f);
      x.type = type_word(type);
      x.type_span = span_of(type);
      if (const Node* d = optional_child<g::formal_default>(*f)) x.fallback = expr(*d->children.back());
    }
    out.push_back(std::move(x));
  }
  return out;
}

// The dimensions (per TYPE or per LO..HI) and the initial value; a const or var's own type, a
// type_name like a dimension's, comes before them and is skipped.
void Builder::dims(const Node& n, const Node* own_type, Decl& d) {
  for (const auto& k : n.children) {
    if (k.get() == own_type) continue;
    if (k->is_type<g::type_name>()) {
      Dim dim;
      dim.span = span_of(*k);
      dim.type = type_word(*k);
      d.dims.push_back(std::move(dim));
    } else if (k->is_type<g::range>()) {
      Dim dim;
      dim.span = span_of(*k);
      dim.lo = expr(expression(*k, 0));
      dim.hi = expr(expression(*k, 1));
      d.dims.push_back(std::move(dim));
    } else if (k->is_type<g::init>()) {
      d.value = expr(expression(*k));
    }
  }
}

Move Builder::move(const Node& node) {
  Move m;
  m.is_override = node.is_type<g::override_rule>();
  m.is_removal = node.is_type<g::remove_rule>();
  const Node& n = m.is_override || m.is_removal ? *node.children.at(0) : node;  // the rule it replaces or drops
  const Node& name_node = child<g::ident>(n);
  m.name = word(name_node);
  m.span = span_of(name_node);
  if (m.is_removal) {
    m.is_otherwise = n.string_view().substr(0, 9) == "otherwise";
    return m;
  }
  if (const Node* rc = optional_child<g::reads_clause>(n)) reading(child<g::reading>(*rc), m);
  if (n.is_type<g::otherwise_decl>()) {
    m.is_otherwise = true;
  } else {
    for (const Node* p : children<g::move_param>(child<g::move_params>(n))) {
      MoveParam mp;
      const Node& param = child<g::ident>(*p);
      mp.name = word(param);
      mp.span = span_of(param);
      mp.domain = expr(expression(*p));
      if (const Node* f = optional_child<g::param_filter>(*p)) mp.filter = expr(expression(*f));
      if (const Node* k = optional_child<g::param_distinct>(*p)) mp.distinct = expr(expression(*k));
      m.params.push_back(std::move(mp));
    }
    if (const Node* gd = optional_child<g::guard>(n)) m.guard = expr(expression(*gd));
  }
  m.body = block(child<g::block>(n));
  return m;
}

// `reads "..."`: literal runs (escapes undone) and holes, in order.
void Builder::reading(const Node& n, Move& m) {
  m.has_reads = true;
  m.reads_span = span_of(n);
  read_parts(n, m.reads);
}

// The parts of a text or of a branch of `{if ...}`, appended to `out`. Literal runs merge only
// within this run of parts: a branch's end must stay where its test's `skip` says.
void Builder::read_parts(const Node& n, std::vector<ReadPart>& out) {
  const size_t start = out.size();
  for (const auto& k : n.children) {
    if (k->is_type<g::read_text>() || k->is_type<g::read_if_text>()) {
      std::string text = unescaped(k->string_view(), false);
      if (out.size() > start && !out.back().value && !out.back().cond && out.back().skip == 0)
        out.back().text += text;
      else
        out.emplace_back().text = std::move(text);
    } else if (!k->is_type<g::read_hole>()) {
      continue;  // the branch nodes of `{if ...}` are read by read_if
    } else if (const Node* cond = optional_child<g::read_if>(*k)) {
      read_if(*cond, out);
    } else {
      ReadPart part;
      if (const Node* each = optional_child<g::read_each>(*k)) {
        const Node& var = child<g::ident>(*each);
        part.var = word(var);
        part.var_span = span_of(var);
        part.domain = expr(expression(*each, 0));
        part.value = expr(expression(*each, 1));
        if (const Node* f = optional_child<g::param_filter>(*each)) part.filter = expr(expression(*f));
        const Node* j = optional_child<g::read_join>(*each);
        part.text = j ? string_value(child<g::string_lit>(*j)) : " ";
      } else {
        part.value = expr(expression(*k));
      }
      out.push_back(std::move(part));
    }
  }
}

// `{if COND: A}` or `{if COND: A|B}`, flat (ast::ReadPart): the test, A, and for B a jump over it.
void Builder::read_if(const Node& n, std::vector<ReadPart>& out) {
  const size_t test = out.size();
  ReadPart t;
  t.cond = expr(expression(n, 0));
  out.push_back(std::move(t));
  read_parts(child<g::read_branch>(n), out);
  const Node* alt = optional_child<g::read_alt>(n);
  const size_t jump = out.size();
  if (alt) out.emplace_back();
  out[test].skip = static_cast<int>(out.size() - test - 1);  // past A and, with B, the jump
  if (alt) {
    read_parts(child<g::read_branch>(*alt), out);
    out[jump].skip = static_cast<int>(out.size() - jump - 1);
  }
}

}  // namespace keli::ast::parse_detail
