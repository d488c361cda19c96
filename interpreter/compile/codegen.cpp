// Code generation: each checked expression or statement becomes one node (plus its children).
// Which fields each node kind uses is the vocabulary's table, lang/nodes.hpp.
#include "compile/codegen.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lang/limits.hpp"

namespace keli::compile {
using ast::ExprKind;
using ast::StmtKind;
using check::SymKind;

// The node kind of each aggregate (lang/operators.hpp's KELI_AGGREGATES, lang/nodes.hpp's Agg*).
static Op aggregate_node(lang::Aggregate a) {
  switch (a) {
#define KELI_AGG_NODE(id, word, empty, meaning, words) \
  case lang::Aggregate::id: return Op::Agg##id;
    KELI_AGGREGATES(KELI_AGG_NODE)
#undef KELI_AGG_NODE
  }
  return Op::AggSum;
}

int CodeGen::node(Op op, Span span) {
  Node n;
  n.op = op;
  out_.code.push_back(n);
  out_.spans.push_back(span);
  return static_cast<int>(out_.code.size()) - 1;
}

int CodeGen::args(const std::vector<int>& nodes) {
  int start = static_cast<int>(out_.args.size());
  out_.args.insert(out_.args.end(), nodes.begin(), nodes.end());
  return start;
}

int CodeGen::new_callable(const std::string& name, int frame_size) {
  Callable c;
  c.name = name;
  c.frame = out_.locals;
  out_.locals += frame_size;
  out_.callables.push_back(c);
  return static_cast<int>(out_.callables.size()) - 1;
}

int CodeGen::callable_for(const ast::Decl& d) {
  auto it = callables_.find(&d);
  if (it != callables_.end()) return it->second;
  int id = new_callable(d.name, d.frame);
  callables_[&d] = id;
  int base = out_.callables[id].frame;
  for (size_t i = 0; i < d.formals.size(); ++i) out_.callables[id].params.push_back(base + static_cast<int>(i));
  int body;
  bool is_expr = d.value != nullptr;
  if (is_expr)
    body = expr(*d.value, base);
  else
    body = block(d.body, base);
  out_.callables[id].body = body;
  out_.callables[id].is_expr = is_expr;
  return id;
}

int CodeGen::table_index(const std::vector<VarInfo>& tables, int sym) const {
  const std::string& name = ck_.syms[sym].name;
  for (size_t i = 0; i < tables.size(); ++i)
    if (tables[i].name == name) return static_cast<int>(i);
  return -1;
}

lang::ValueKind CodeGen::value_kind(const ast::Expr& d) const {
  if (d.kind == ExprKind::Range) return lang::ValueKind::Int;
  if (d.type == ast::Type::Region) return lang::ValueKind::Site;
  if (d.type == ast::Type::Domain) return lang::value_kind(static_cast<ast::Type>(d.enum_id));
  return lang::ValueKind::Int;
}

int CodeGen::domain(const ast::Expr& e, int base) {
  if (names_collection(e)) return collection_node(Op::DomColl, base + e.sym, e.span);
  if (e.kind == ExprKind::Range) {
    int lo = expr(*e.kids[0], base), hi = expr(*e.kids[1], base);
    int n = node(Op::DomRange, e.span);
    out_.code[n].k[0] = lo;
    out_.code[n].k[1] = hi;
    return n;
  }
  if (e.kind == ExprKind::Call && e.ref >= 0 && e.sym < 0 && lang::is_search(static_cast<lang::Builtin>(e.ref)))
    return search_domain(e, base);
  if (e.type == ast::Type::Domain && static_cast<ast::Type>(e.enum_id) == ast::Type::Direction) {
    int n = node(Op::DomRange, e.span);  // `directions`: 0 .. D-1
    out_.code[n].k[0] = immediate(0, e.span);
    out_.code[n].k[1] = immediate(static_cast<int32_t>(out_.direction_names.size()) - 1, e.span);
    return n;
  }
  if (e.type == ast::Type::Domain) {
    int n = node(Op::DomCount, e.span);
    auto t = static_cast<ast::Type>(e.enum_id);
    out_.code[n].aux = static_cast<uint8_t>(t == ast::Type::Site     ? lang::DomainOf::Sites
                                            : t == ast::Type::Player ? lang::DomainOf::Seats
                                                                     : lang::DomainOf::Pieces);
    return n;
  }
  int r = expr(e, base);
  int n = node(Op::DomRegion, e.span);
  out_.code[n].k[0] = r;
  return n;
}

int CodeGen::access(const ast::Expr& e, int base) {
  std::vector<const ast::Expr*> idx;
  const ast::Expr* root = &e;
  while (root->kind == ExprKind::Index) {
    idx.push_back(root->kids[1].get());
    root = root->kids[0].get();
  }
  std::reverse(idx.begin(), idx.end());
  std::vector<int> ix;
  for (auto* i : idx) ix.push_back(expr(*i, base));
  if (names_collection(*root)) return collection_read(Op::CollGet, *root, ix.at(0), e.span, base);
  if (root->is_local) {  // a local region: local[i]
    int l = node(Op::Local, root->span);
    out_.code[l].a = base + root->sym;
    int n = node(Op::RegionSite, e.span);
    out_.code[n].k[0] = l;
    out_.code[n].k[1] = ix.at(0);
    return n;
  }
  if (root->sym < 0) {  // roll[i]
    int n = node(Op::Roll, e.span);
    out_.code[n].k[0] = ix.at(0);
    return n;
  }
  const check::Symbol& s = ck_.syms[root->sym];
  size_t ndims = s.decl->dims.size();
  if (s.kind == SymKind::Var || s.kind == SymKind::Const) {
    int n = node(s.kind == SymKind::Var ? Op::StateGet : Op::ConstGet, e.span);
    out_.code[n].a = table_index(s.kind == SymKind::Var ? out_.vars : out_.const_tables, root->sym);
    for (size_t i = 0; i < ix.size() && i < static_cast<size_t>(kNodeKids); ++i) out_.code[n].k[i] = ix[i];
    return n;
  }
  // region or track: indices up to its dims give an instance, one more gives a site
  int r = node(Op::RegionId, e.span);
  out_.code[r].a = table_index(out_.region_tables, root->sym);
  for (size_t i = 0; i < ndims && i < static_cast<size_t>(kNodeKids); ++i) out_.code[r].k[i] = ix[i];
  if (ix.size() == ndims) return r;
  int n = node(Op::RegionSite, e.span);
  out_.code[n].k[0] = r;
  out_.code[n].k[1] = ix.back();
  return n;
}

int CodeGen::expr(const ast::Expr& e, int base) {
  switch (e.kind) {
    case ExprKind::Int:
    case ExprKind::Bool: return immediate(static_cast<int32_t>(e.value), e.span);
    case ExprKind::Name: return name(e, base);
    case ExprKind::Index: return access(e, base);
    case ExprKind::Call: return call(e, base);
    case ExprKind::Neg:
    case ExprKind::Not: return unary(e, base);
    case ExprKind::Binary: return binary(e, base);
    case ExprKind::Cond: return conditional(e, base);
    case ExprKind::Aggregate: return aggregate(e, base);
    default: return node(Op::Imm, e.span);
  }
}

int CodeGen::immediate(int32_t value, Span span) {
  int n = node(Op::Imm, span);
  out_.code[n].a = value;
  return n;
}

// A local's slot, a built-in, or a global: parameters, seats and phases are known numbers here.
int CodeGen::name(const ast::Expr& e, int base) {
  if (e.is_local) {
    int n = node(Op::Local, e.span);
    out_.code[n].a = base + e.sym;
    return n;
  }
  if (e.sym < 0) {
    auto id = static_cast<lang::BuiltinVar>(e.ref);
    if (id == lang::BuiltinVar::mover) return node(Op::Mover, e.span);
    if (id == lang::BuiltinVar::phase) return node(Op::Phase, e.span);
    if (id == lang::BuiltinVar::ply) return node(Op::Ply, e.span);
    if (id == lang::BuiltinVar::most_dice) return immediate(out_.max_roll, e.span);
    if (id == lang::BuiltinVar::repetitions) {
      if (!out_.history_reads.valid()) out_.history_reads = e.span;  // the game keeps a history
      return node(Op::Repetitions, e.span);
    }
    return domain(e, base);
  }
  const check::Symbol& s = ck_.syms[e.sym];
  switch (s.kind) {
    case SymKind::Param: return immediate(static_cast<int32_t>(params_.at(e.sym)), e.span);
    case SymKind::Seat:
    case SymKind::Direction: return immediate(s.index, e.span);
    case SymKind::Phase: return immediate(phase_ids.count(e.sym) ? phase_ids.at(e.sym) : 0, e.span);
    case SymKind::Var:
    case SymKind::Const:
    case SymKind::Region:
    case SymKind::Track: return access(e, base);
    default: return node(Op::Imm, e.span);
  }
}

// A def or shape by its callable, a built-in function by its number (with up to two arguments inline).
// `step(s, d)`, `ray(s, d)` and `neighbours(s)` read the tables compile/geometry.cpp built: one
// constant table and two region tables, so both engines run them as any table read. -1 otherwise.
int CodeGen::geometry(const ast::Expr& e, const std::vector<int>& args) {
  const auto b = static_cast<lang::Builtin>(e.ref);
  if (b != lang::Builtin::step && b != lang::Builtin::ray && b != lang::Builtin::neighbours) return -1;
  int n = node(b == lang::Builtin::step ? Op::ConstGet : Op::RegionId, e.span);
  out_.code[n].a = b == lang::Builtin::step  ? out_.step_table
                   : b == lang::Builtin::ray ? out_.ray_table
                                             : out_.neighbour_table;
  for (size_t i = 0; i < args.size() && i < 2; ++i) out_.code[n].k[i] = args[i];
  return n;
}

// `group(T, s)`, `border(T, s)`: storage for a set of sites (a border two) after every frame laid out so far
// (as a collection's: no body runs twice at once, so one block serves every run of the loop), the
// state table read whole by the search (lang/collections.hpp's coll_flood).
int CodeGen::search_domain(const ast::Expr& e, int base) {
  const int site = expr(*e.kids[2], base);
  const int64_t cap = out_.num_sites;
  const bool border = static_cast<lang::Builtin>(e.ref) == lang::Builtin::border;
  const int64_t slots = (border ? 2 : 1) * lang::coll_slots(lang::CollKind::Set, cap);  // a border keeps the group too
  if (reserve_slots) reserve_slots(slots, e.span, fmt::format("'{}'", e.kids[0]->text));
  int n = node(Op::DomSearch, e.span);
  out_.code[n].a = out_.locals;
  out_.code[n].b = table_index(out_.vars, e.kids[1]->sym);
  out_.code[n].c = static_cast<int32_t>(cap);
  out_.code[n].aux = border ? 1 : 0;
  out_.code[n].k[0] = site;
  out_.collection_storage.push_back(out_.locals);
  out_.locals += static_cast<int>(slots);
  return n;
}

int CodeGen::call(const ast::Expr& e, int base) {
  if (e.coll_fn >= 0) return collection_call(e, base);
  std::vector<int> a;
  for (size_t i = 1; i < e.kids.size(); ++i) a.push_back(expr(*e.kids[i], base));
  if (e.sym >= 0) {
    int callee = callable_for(*ck_.syms[e.sym].decl);
    int n = node(Op::Call, e.span);
    out_.code[n].a = callee;
    out_.code[n].b = args(a);
    out_.code[n].c = static_cast<int32_t>(a.size());
    return n;
  }
  if (int g = geometry(e, a); g >= 0) return g;
  int n = node(Op::Builtin, e.span);
  out_.code[n].a = e.ref;
  for (size_t i = 0; i < a.size() && i < 2; ++i) out_.code[n].k[i] = a[i];
  return n;
}

int CodeGen::unary(const ast::Expr& e, int base) {
  // -2147483648: its digits do not fit an immediate, the negated value does.
  if (e.op == lang::Operator::Neg && e.kids[0]->kind == ExprKind::Int && e.kids[0]->value == lang::kMaxLiteral + 1)
    return immediate(INT32_MIN, e.span);
  int k = expr(*e.kids[0], base);
  int n = node(lang::operator_node(e.op), e.span);
  out_.code[n].k[0] = k;
  return n;
}

int CodeGen::binary(const ast::Expr& e, int base) {
  if (e.op == lang::Operator::In && names_collection(*e.kids[1]))
    return collection_read(Op::CollHas, *e.kids[1], expr(*e.kids[0], base), e.span, base);
  Op op = lang::operator_node(e.op);
  int l = expr(*e.kids[0], base), r = expr(*e.kids[1], base);
  int n = node(op, e.span);
  out_.code[n].k[0] = l;
  out_.code[n].k[1] = r;
  return n;
}

int CodeGen::conditional(const ast::Expr& e, int base) {
  int c = expr(*e.kids[0], base), t = expr(*e.kids[1], base), f = expr(*e.kids[2], base);
  int n = node(Op::Cond, e.span);
  out_.code[n].k[0] = c;
  out_.code[n].k[1] = t;
  out_.code[n].k[2] = f;
  return n;
}

int CodeGen::aggregate(const ast::Expr& e, int base) {
  Op op = aggregate_node(e.agg);
  int d = domain(*e.kids[0], base);
  int body = expr(*e.kids[1], base);
  const ast::Expr* f = ast::loop_filter(e);
  const ast::Expr* w = ast::loop_while(e);
  int filter = f ? expr(*f, base) : -1;
  int stop = w ? expr(*w, base) : -1;
  int n = node(op, e.span);
  out_.code[n].a = base + e.sym;
  out_.code[n].k[0] = d;
  out_.code[n].k[1] = body;
  out_.code[n].k[2] = filter;
  out_.code[n].k[kLoopWhile] = stop;
  return n;
}

int CodeGen::block(const ast::Block& b, int base) {
  int first = -1, last = -1;
  for (auto& s : b) {
    int n = stmt(*s, base);
    if (n < 0) continue;
    if (first < 0)
      first = n;
    else
      out_.code[last].next = n;
    last = n;
    while (out_.code[last].next >= 0) last = out_.code[last].next;
  }
  return first;
}

int CodeGen::stmt(const ast::Stmt& s, int base) {
  switch (s.kind) {
    case StmtKind::Let: return let_statement(s, base);
    case StmtKind::Assign: return assign(s, base);
    case StmtKind::If: return if_statement(s, base);
    case StmtKind::While:
    case StmtKind::Suppose: return while_statement(s, base);
    case StmtKind::For: return for_statement(s, base);
    case StmtKind::Return: return return_statement(s, base);
    case StmtKind::Emit: return emit_statement(s, base);
    case StmtKind::Call: return call_statement(s, base);
    case StmtKind::Note: return note_statement(s);
    case StmtKind::Add: return names_collection(*s.exprs[1]) ? change_collection(s, base) : add_statement(s, base);
    case StmtKind::Remove:
    case StmtKind::Clear: return change_collection(s, base);
    case StmtKind::Finish: return finish_statement(s, base);
    case StmtKind::EndGame: return end_game_statement(s);
  }
  return -1;
}

int CodeGen::let_statement(const ast::Stmt& s, int base) {
  if (s.coll != lang::CollKind::None) return let_collection(s, base);
  int v = expr(*s.exprs[0], base);
  int n = node(Op::SetLocal, s.span);
  out_.code[n].a = base + s.slot;
  out_.code[n].k[0] = v;
  return n;
}

// To a local, to a writable built-in (mover, phase), or into a table through its access node.
int CodeGen::assign(const ast::Stmt& s, int base) {
  const ast::Expr& t = *s.exprs[0];
  int v = expr(*s.exprs[1], base);
  auto op = static_cast<uint8_t>(s.assign);
  const ast::Expr* root = &t;
  while (root->kind == ExprKind::Index) root = root->kids[0].get();
  if (root->is_local) {
    int n = node(Op::SetLocal, s.span);
    out_.code[n].a = base + root->sym;
    out_.code[n].aux = op;
    out_.code[n].k[0] = v;
    return n;
  }
  if (root->sym < 0) {
    int n =
        node(static_cast<lang::BuiltinVar>(root->ref) == lang::BuiltinVar::mover ? Op::SetMover : Op::SetPhase, s.span);
    out_.code[n].k[0] = v;
    return n;
  }
  int get = access(t, base);  // reuse the access node's table and indices
  Node g = out_.code[get];
  int n = node(g.op == Op::StateGet ? Op::StateSet : Op::ConstSet, s.span);
  out_.code[n].a = g.a;
  for (int i = 0; i < kNodeKids; ++i) out_.code[n].k[i] = g.k[i];
  out_.code[n].d = v;
  out_.code[n].aux = op;
  return n;
}

int CodeGen::if_statement(const ast::Stmt& s, int base) {
  // if c0 b0 elif c1 b1 ... else bN: a chain of If nodes, each else pointing at the next.
  int first = -1, prev = -1;
  for (size_t i = 0; i < s.exprs.size(); ++i) {
    int c = expr(*s.exprs[i], base);
    int then = block(s.blocks[i], base);
    int n = node(Op::If, s.span);
    out_.code[n].k[0] = c;
    out_.code[n].k[1] = then;
    if (prev >= 0)
      out_.code[prev].k[2] = n;
    else
      first = n;
    prev = n;
  }
  if (s.has_else) out_.code[prev].k[2] = block(s.blocks.back(), base);
  return first;
}

int CodeGen::while_statement(const ast::Stmt& s, int base) {  // and `suppose`: a body without condition
  const bool loop = s.kind == StmtKind::While;
  int c = loop ? expr(*s.exprs[0], base) : -1;
  int body = block(s.blocks[0], base);
  int n = node(loop ? Op::While : Op::Suppose, s.span);
  out_.code[n].k[0] = c;
  out_.code[n].k[1] = body;
  return n;
}

int CodeGen::for_statement(const ast::Stmt& s, int base) {
  int d = domain(*s.exprs[0], base);
  const ast::Expr* f = ast::loop_filter(s);
  const ast::Expr* w = ast::loop_while(s);
  int filter = f ? expr(*f, base) : -1;
  int stop = w ? expr(*w, base) : -1;
  int body = block(s.blocks[0], base);
  int n = node(Op::For, s.span);
  out_.code[n].a = base + s.slot;
  out_.code[n].k[0] = d;
  out_.code[n].k[1] = body;
  out_.code[n].k[2] = filter;
  out_.code[n].k[kLoopWhile] = stop;
  return n;
}

int CodeGen::return_statement(const ast::Stmt& s, int base) {
  int v = s.exprs.empty() ? -1 : expr(*s.exprs[0], base);
  int n = node(Op::Return, s.span);
  out_.code[n].k[0] = v;
  return n;
}

int CodeGen::emit_statement(const ast::Stmt& s, int base) {
  std::vector<int> a;
  const ast::Expr& call = *s.exprs[0];
  for (size_t i = 1; i < call.kids.size(); ++i) a.push_back(expr(*call.kids[i], base));
  int n = node(Op::Emit, s.span);
  out_.code[n].a = event_ids.count(s.sym) ? event_ids.at(s.sym) : 0;
  out_.code[n].b = args(a);
  out_.code[n].c = static_cast<int32_t>(a.size());
  return n;
}

int CodeGen::call_statement(const ast::Stmt& s, int base) {  // a call whose result is dropped
  int c = expr(*s.exprs[0], base);
  if (out_.code[c].op == Op::Call) out_.code[c].op = Op::CallStmt;
  return c;
}

int CodeGen::note_statement(const ast::Stmt& s) {  // notes are kept once each, by number
  int n = node(Op::Note, s.span);
  auto it = std::find(out_.notes.begin(), out_.notes.end(), s.text);
  out_.code[n].a = static_cast<int32_t>(it - out_.notes.begin());
  if (it == out_.notes.end()) out_.notes.push_back(s.text);
  return n;
}

int CodeGen::add_statement(const ast::Stmt& s, int base) {
  int site = expr(*s.exprs[0], base), reg = expr(*s.exprs[1], base);
  int n = node(Op::AddSite, s.span);
  out_.code[n].k[0] = site;
  out_.code[n].k[1] = reg;
  return n;
}

int CodeGen::finish_statement(const ast::Stmt& s, int base) {
  std::vector<int> a;
  for (auto& p : s.exprs) a.push_back(expr(*p, base));
  int n = node(Op::Finish, s.span);
  out_.code[n].b = args(a);
  out_.code[n].c = static_cast<int32_t>(a.size());
  return n;
}

// `end_game by NAME points NAME`: the ranking (aux, a) and the points (c, b) each come from a
// table per player or from a function of a player (lang::EndBy::Plain when not given).
int CodeGen::end_game_statement(const ast::Stmt& s) {
  int n = node(Op::EndGame, s.span);
  auto [by, by_index] = per_player(s.sym);
  auto [points, points_index] = per_player(s.points_sym);
  out_.code[n].aux = static_cast<uint8_t>(by);
  out_.code[n].a = by_index;
  out_.code[n].c = static_cast<int32_t>(points);
  out_.code[n].b = points_index;
  return n;
}

std::pair<lang::EndBy, int> CodeGen::per_player(int sym_index) {
  if (sym_index < 0) return {lang::EndBy::Plain, 0};
  const check::Symbol& sym = ck_.syms[sym_index];
  if (sym.kind == SymKind::Var) return {lang::EndBy::Table, table_index(out_.vars, sym_index)};
  return {lang::EndBy::Callable, callable_for(*sym.decl)};
}

}  // namespace keli::compile
