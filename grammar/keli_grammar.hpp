// The Keli game description language: PEGTL rules only (no actions, no AST).
// The interpreter's AST builder selects which of these rules become parse-tree nodes;
// keli_errors.hpp holds the one table of messages raised when a must<> fails.
#pragma once

#include <tao/pegtl.hpp>

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <type_traits>

#include "keli_keywords.hpp"
#include "keli_nesting.hpp"
#include "keli_recovery.hpp"

namespace keli::grammar {
namespace p = tao::pegtl;

// ---- lexical layer -------------------------------------------------------------
struct comment : p::seq<p::one<'#'>, p::until<p::eolf>> {};
struct blank : p::sor<p::space, comment> {};
struct _ : p::star<blank> {};  // any white space and comments

template <typename R>
struct tok : p::seq<R, _> {};
template <char... Cs>
struct sym : tok<p::string<Cs...>> {};

struct ident_first : p::ranges<'a', 'z', 'A', 'Z', '_'> {};
struct ident_other : p::ranges<'a', 'z', 'A', 'Z', '0', '9', '_'> {};
template <typename Str>
struct key : p::seq<Str, p::not_at<ident_other>, _> {};

// One rule kw_ID per word of the language (keli_keywords.hpp).
#define KELI_KW(id, text, roles) \
  struct kw_##id : key<TAO_PEGTL_STRING(text)> {};
KELI_KEYWORDS(KELI_KW)
#undef KELI_KW

// Words that can never name anything (the Reserved ones); declaration words (players, board, ...)
// stay usable as names. The word at the input is read once, to its end, and looked up: the same
// as trying each reserved keyword in turn (a keyword matches only a whole word), without trying
// each of them at every name. Used only inside not_at<>, so it consumes just the word.
// The longest word of the language, in bytes: a longer word is no keyword.
#define KELI_KEYWORD_LENGTH(id, text, roles) sizeof(text) - 1,
inline constexpr std::size_t kLongestKeyword = std::max({KELI_KEYWORDS(KELI_KEYWORD_LENGTH) std::size_t{0}});
#undef KELI_KEYWORD_LENGTH
#define KELI_RESERVED_TEXT(id, text, roles) \
  if ((((roles)&Reserved) != 0) && word == std::string_view(text)) return true;
struct reserved {
  using rule_t = reserved;
  using subs_t = p::empty_list;
  static bool is_reserved(std::string_view word) {
    KELI_KEYWORDS(KELI_RESERVED_TEXT)
    return false;
  }
  template <typename ParseInput>
  static bool match(ParseInput& in) {
    std::size_t n = 0;
    const std::size_t available = in.size(kLongestKeyword + 1);
    while (n < available && is_ident_other(in.peek_char(n))) ++n;
    if (n == 0 || n > kLongestKeyword || !is_reserved(std::string_view(in.current(), n))) return false;
    in.bump_in_this_line(n);
    return true;
  }
  static constexpr bool is_ident_other(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }
};
#undef KELI_RESERVED_TEXT
struct name : p::seq<p::not_at<reserved>, ident_first, p::star<ident_other>> {};
struct ident : tok<name> {};
struct integer : tok<p::plus<p::digit>> {};
struct str_escape : p::one<'"', '\\', 'n'> {};
struct str_char : p::sor<p::seq<p::one<'\\'>, p::must<str_escape>>, p::not_one<'"', '\\', '\n'>> {};
struct str_body : p::star<str_char> {};
struct str_close : p::one<'"'> {};
struct string_lit : tok<p::seq<p::one<'"'>, str_body, p::must<str_close>>> {};

// ---- expressions ---------------------------------------------------------------
struct expr;
struct domain;
struct lbrace : sym<'{'> {};
struct rbrace : sym<'}'> {};
struct lparen : sym<'('> {};
struct rparen : sym<')'> {};
struct lbrack : sym<'['> {};
struct rbrack : sym<']'> {};
struct comma : sym<','> {};
struct colon : sym<':'> {};
struct ident_list : p::list<ident, comma> {};
struct assign_eq : p::seq<p::one<'='>, p::not_at<p::one<'='>>, _> {};

struct args : p::opt<p::list<expr, comma>> {};
struct call_suffix : p::seq<lparen, nest<args>, p::must<rparen>> {};
struct index_suffix : p::seq<lbrack, nest<p::must<expr>>, p::must<rbrack>> {};
struct bool_lit : p::sor<kw_true, kw_false> {};
struct list_lit : p::seq<lbrack, nest<p::opt<p::list<expr, comma>>>, p::must<rbrack>> {};
struct paren_expr : p::seq<lparen, nest<p::must<expr>>, p::must<rparen>> {};
struct agg_kind : p::sor<kw_sum, kw_count, kw_any, kw_all, kw_min, kw_max> {};
struct agg_filter : p::seq<kw_where, p::must<expr>> {};
// `while COND` after a loop's domain: the loop stops at the first element where COND is false.
struct loop_while : p::seq<kw_while, p::must<expr>> {};
struct aggregate
    : p::seq<agg_kind, lparen,
             nest<ident, kw_in, p::must<domain>, p::opt<loop_while>, p::opt<agg_filter>, p::must<colon>, p::must<expr>>,
             p::must<rparen>> {};
struct variable : ident {};
struct primary : p::sor<integer, bool_lit, string_lit, aggregate, list_lit, paren_expr, variable> {};
struct postfix : p::seq<primary, p::star<p::sor<call_suffix, index_suffix>>> {};
struct neg_op : sym<'-'> {};
struct not_op : kw_not {};
struct unary : p::sor<p::seq<neg_op, nest<p::must<unary>>>, postfix> {};
struct mul_op : tok<p::one<'*', '/', '%'>> {};
struct multiplicative : p::seq<unary, p::star<mul_op, p::must<unary>>> {};
struct add_op : tok<p::seq<p::one<'+', '-'>, p::not_at<p::one<'='>>>> {};
struct additive : p::seq<multiplicative, p::star<add_op, p::must<multiplicative>>> {};
struct cmp_op : tok<p::sor<TAO_PEGTL_STRING("=="), TAO_PEGTL_STRING("!="), TAO_PEGTL_STRING("<="),
                           TAO_PEGTL_STRING(">="), p::one<'<'>, p::one<'>'>>> {};
struct in_op : kw_in {};
struct comparison : p::seq<additive, p::opt<p::sor<cmp_op, in_op>, p::must<additive>>> {};
struct negation : p::sor<p::seq<not_op, nest<p::must<negation>>>, comparison> {};
struct and_op : kw_and {};
struct conjunction : p::seq<negation, p::star<and_op, p::must<negation>>> {};
struct or_op : kw_or {};
struct disjunction : p::seq<conjunction, p::star<or_op, p::must<conjunction>>> {};
struct conditional
    : p::seq<kw_if, nest<p::must<expr>, p::must<kw_then>, p::must<expr>, p::must<kw_else>, p::must<expr>>> {};
struct expr : p::sor<conditional, disjunction> {};

struct expr_list : p::list<expr, comma> {};
struct range_op : sym<'.', '.'> {};
struct range : p::seq<additive, range_op, p::must<additive>> {};
// Whether a range `A..B` starts here: a `..` before the domain ends (at `{`, `:`, `,`, `)`, `]` or
// `where` outside brackets). Only then is `range` tried: trying it on every domain re-parsed a
// domain that is not a range as an expression, twice a level, so nested domains took 2^depth.
struct range_ahead {
  using rule_t = range_ahead;
  using subs_t = p::type_list<>;
  template <p::apply_mode A, p::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&...) {
    int depth = 0;
    for (const char *s = in.current(), *end = in.end(); s < end; ++s) {
      char c = *s;
      if (c == '"') {  // a string: its brackets do not count
        for (++s; s < end && *s != '"' && *s != '\n'; ++s) s += (*s == '\\' && s + 1 < end) ? 1 : 0;
      } else if (c == '#') {
        while (s + 1 < end && s[1] != '\n') ++s;
      } else if (c == '(' || c == '[') {
        ++depth;
      } else if ((c == ')' || c == ']') && depth > 0) {
        --depth;
      } else if (depth == 0 && (c == '{' || c == ':' || c == ',' || c == ')' || c == ']')) {
        return false;
      } else if (depth == 0 && c == '.' && s + 1 < end && s[1] == '.') {
        return true;
      } else if (depth == 0 && recovery::word_at(s, end) == "where" &&
                 (s == in.current() || !recovery::word_char(s[-1]))) {
        return false;
      }
    }
    return false;
  }
};
struct domain : p::sor<p::seq<range_ahead, range>, expr, p::failure> {};

// ---- statements ----------------------------------------------------------------
struct stmt;
// Text in a block that is no statement: reported (the message table says what was expected), then
// skipped by recovery. A closing brace, the end of the file or a new declaration ends the block.
struct statement_expected : p::failure {};
struct stray_stmt : p::seq<p::not_at<p::sor<p::one<'}'>, p::eof>>, p::must<statement_expected>> {};
struct block_item : recover<p::sor<stmt, stray_stmt>, level::statement> {};
struct block : p::seq<lbrace, nest<p::star<block_item>>, p::must<rbrace>> {};
// `site or none`: a value that may be absent (`none` is no keyword: old files use it as a choice).
struct or_none : p::seq<kw_or, key<TAO_PEGTL_STRING("none")>> {};
struct type_name : p::seq<ident, p::opt<or_none>> {};
// `list of T`, `set of T`: a local collection's type, T a site, player, piece or range `A..B`.
struct coll_kind : p::sor<kw_list, kw_set> {};
struct coll_elem : p::sor<range, ident> {};
struct coll_type : p::seq<coll_kind, p::must<kw_of>, p::must<coll_elem>> {};
struct let_stmt : p::seq<kw_let, p::must<ident>,
                         p::sor<p::seq<colon, p::must<coll_type>>, p::seq<p::must<assign_eq>, p::must<expr>>>> {};
struct elif_part : p::seq<kw_elif, p::must<expr>, p::must<block>> {};
struct else_part : p::seq<kw_else, p::must<block>> {};
struct if_stmt : p::seq<kw_if, p::must<expr>, p::must<block>, p::star<elif_part>, p::opt<else_part>> {};
struct while_stmt : p::seq<kw_while, p::must<expr>, p::must<block>> {};
struct for_filter : p::seq<kw_where, p::must<expr>> {};
struct for_stmt : p::seq<kw_for, p::must<ident>, p::must<kw_in>, p::must<domain>, p::opt<loop_while>,
                         p::opt<for_filter>, p::must<block>> {};
struct return_stmt : p::seq<kw_return, p::opt<p::not_at<rbrace>, expr>> {};
struct emit_stmt : p::seq<kw_emit, p::must<ident>, p::must<call_suffix>> {};
struct note_stmt : p::seq<kw_note, p::must<string_lit>> {};
struct add_stmt : p::seq<kw_add, p::must<expr>, p::must<kw_to>, p::must<expr>> {};
// Whether the word `from` follows on this line, outside brackets and before a `;`, `{`, `}` or
// comment: only then is `remove ...` the statement. The words stay names (stdlib/lines.keli
// defines `remove(...)`), and `remove()`, `remove(a, b)` or `remove -= 1` must parse as before.
struct from_ahead {
  using rule_t = from_ahead;
  using subs_t = p::type_list<>;
  template <p::apply_mode A, p::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&...) {
    int depth = 0;
    for (const char *s = in.current(), *end = in.end(); s < end && *s != '\n'; ++s) {
      const char c = *s;
      if (c == '"' || c == '#' || c == ';' || c == '{' || c == '}') return false;
      if (c == '(' || c == '[') ++depth;
      if ((c == ')' || c == ']') && depth > 0) --depth;
      if (depth == 0 && recovery::word_at(s, end) == "from" && (s == in.current() || !recovery::word_char(s[-1])))
        return true;
    }
    return false;
  }
};
// `remove X from C`, `clear C`: `clear` needs a name after it (`clear = 1` assigns).
struct remove_stmt : p::seq<kw_remove, from_ahead, p::must<expr>, p::must<kw_from>, p::must<expr>> {};
struct clear_stmt : p::seq<kw_clear, ident> {};
// `suppose { ... }`: the block runs and the game comes back as it was (locals keep what it
// assigned). Only before a `{`: `suppose` stays usable as a name (`suppose = 1`, `suppose(x)`).
struct suppose_stmt : p::seq<kw_suppose, p::at<lbrace>, p::must<block>> {};
struct finish_stmt : p::seq<kw_finish, p::must<expr_list>> {};
struct end_by : p::seq<kw_by, p::must<ident>> {};
// `points NAME`: what each seat scores. Not `must`: a statement after `end_game` may assign a
// variable named `points` (`points = 3` is no name after the word, so the clause is not there).
struct end_points : p::seq<kw_points, ident> {};
struct end_stmt : p::seq<kw_end_game, p::opt<end_by>, p::opt<end_points>> {};
struct assign_op
    : tok<p::sor<TAO_PEGTL_STRING("+="), TAO_PEGTL_STRING("-="), p::seq<p::one<'='>, p::not_at<p::one<'='>>>>> {};
struct target : p::seq<ident, p::star<index_suffix>> {};
struct assign_stmt : p::seq<target, assign_op, p::must<expr>> {};
struct call_stmt : p::seq<ident, call_suffix> {};
// Turn order (stdlib/turn_order.keli): `end turn`, `pass turn`, `extra turn`. The words are not
// reserved: `pass`, `extra` and `turn` stay usable as names (`move pass()`, `extra += 1`).
struct end_turn_stmt : p::seq<kw_end, kw_turn> {};
struct pass_turn_stmt : p::seq<kw_pass, kw_turn> {};
struct extra_turn_stmt : p::seq<kw_extra, kw_turn> {};
struct semi : sym<';'> {};
struct stmt : p::sor<semi, let_stmt, if_stmt, while_stmt, for_stmt, return_stmt, emit_stmt, note_stmt, add_stmt,
                     remove_stmt, clear_stmt, suppose_stmt, finish_stmt, end_stmt, end_turn_stmt, pass_turn_stmt,
                     extra_turn_stmt, call_stmt, assign_stmt> {};

// ---- declarations --------------------------------------------------------------
struct header : p::seq<kw_game, p::must<string_lit>, p::opt<kw_extends, p::must<string_lit>>> {};
struct import_decl : p::seq<kw_import, p::must<string_lit>> {};
struct about_entry : p::seq<ident, p::must<colon>, p::must<string_lit>> {};
struct about_decl : p::seq<kw_about, p::must<lbrace>, p::star<about_entry>, p::must<rbrace>> {};

struct enum_type : p::seq<lbrace, p::must<ident_list>, p::must<rbrace>> {};
struct int_set : p::seq<lbrace, p::must<expr_list>, p::must<rbrace>> {};
struct int_allowed : p::sor<int_set, range, p::failure> {};
struct int_limits : p::seq<kw_in, p::must<int_allowed>> {};
struct int_type : p::seq<kw_int, p::opt<int_limits>> {};
struct bool_type : kw_bool {};
struct param_type : p::sor<bool_type, int_type, enum_type, p::failure> {};
struct doc : string_lit {};
struct param_typed : p::seq<colon, p::must<param_type>> {};  // absent: a variant's new default
struct param_decl
    : p::seq<kw_param, p::must<ident>, p::opt<param_typed>, p::must<assign_eq>, p::must<expr>, p::opt<doc>> {};

struct players_names : p::seq<kw_named, p::must<ident_list>> {};
struct players_decl : p::seq<kw_players, p::must<expr>, p::opt<players_names>> {};
struct pieces_decl : p::seq<kw_pieces, p::must<expr>> {};

struct dim : p::sor<range, type_name, p::failure> {};
struct dims : p::star<kw_per, p::must<dim>> {};
struct init : p::seq<assign_eq, p::must<expr>> {};
struct const_decl : p::seq<kw_const, p::must<ident>, p::must<colon>, p::must<type_name>, dims, p::opt<init>> {};
struct var_decl : p::seq<kw_var, p::must<ident>, p::must<colon>, p::must<type_name>, dims, p::opt<init>> {};
struct region_decl : p::seq<kw_region, p::must<ident>, dims> {};
struct track_decl : p::seq<kw_track, p::must<ident>, dims> {};

struct faces : p::seq<lbrack, p::must<expr_list>, p::must<rbrack>> {};
struct dice_copies : p::seq<expr, kw_of, p::must<faces>> {};
struct dice_spec : p::sor<p::list<faces, comma>, dice_copies, p::failure> {};
// `ordered`: the throw keeps each die's value in place (not before `of`: then it is a name).
struct dice_order : p::seq<kw_ordered, p::not_at<kw_of>> {};
struct dice_decl : p::seq<kw_dice, p::must<ident>, p::must<assign_eq>, p::opt<dice_order>, p::must<dice_spec>> {};

// `left: int = 0`: a default, so that a definition or event that grows keeps its earlier callers.
struct formal_default : p::seq<assign_eq, p::must<expr>> {};
struct formal : p::seq<ident, p::must<colon>, p::must<type_name>, p::opt<formal_default>> {};
struct formals : p::seq<lparen, p::opt<p::list<formal, comma>>, p::must<rparen>> {};
struct result_type : p::seq<colon, p::must<type_name>> {};
struct body_expr : p::seq<assign_eq, p::must<expr>> {};
struct def_body : p::sor<body_expr, block, p::failure> {};
struct def_decl : p::seq<kw_def, p::must<ident>, p::must<formals>, p::opt<result_type>, p::must<def_body>> {};
// `fact NAME(KEYS): int = count(x in D where ...)` (or sum): a value the engine keeps up to date
// (docs/language.md, "Facts the engine keeps"); its body is one expression.
struct fact_decl : p::seq<kw_fact, p::must<ident>, p::must<formals>, p::opt<result_type>, p::must<body_expr>> {};
struct shape_decl : p::seq<kw_shape, p::must<ident>, p::must<formals>, p::must<block>> {};
struct board_call : p::seq<ident, p::must<call_suffix>> {};
struct board_body : p::sor<block, board_call, p::failure> {};
struct board_decl : p::seq<kw_board, p::must<board_body>> {};
struct event_decl : p::seq<kw_event, p::must<ident>, p::must<formals>> {};
struct handler_params : p::seq<lparen, p::opt<p::list<ident, comma>>, p::must<rparen>> {};
struct guard : p::seq<kw_when, p::must<expr>> {};
struct on_decl : p::seq<kw_on, p::must<ident>, p::must<handler_params>, p::opt<guard>, p::must<block>> {};
struct setup_decl : p::seq<kw_setup, p::must<block>> {};

struct param_filter : p::seq<kw_where, p::must<expr>> {};
// `distinct by KEY`: of the values passing the filter, only the first of each KEY is a choice.
struct distinct_by : kw_by {};
struct param_distinct : p::seq<kw_distinct, p::must<distinct_by>, p::must<expr>> {};
struct move_param : p::seq<ident, p::must<kw_in>, p::must<domain>, p::opt<param_filter>, p::opt<param_distinct>> {};
struct move_params : p::seq<lparen, p::opt<p::list<move_param, comma>>, p::must<rparen>> {};
// `reads "..."`: how a move reads in the game's own words. Text between holes is copied; a hole
// `{EXPR}` shows a value as the rules name it (a piece's label, a site's, a seat's name, a number);
// `{for x in D where F: EXPR joined "+"}` shows EXPR for each x, separated by the string;
// `{if COND: TEXT}` and `{if COND: TEXT|OTHER}` show TEXT when COND holds (else OTHER), each a
// run of text and holes copied as written (only the spaces right after the `:` are dropped).
struct read_escape : p::one<'"', '\\', 'n', '{', '}', '|'> {};
struct read_text : p::plus<p::sor<p::seq<p::one<'\\'>, p::must<read_escape>>, p::not_one<'"', '\\', '\n', '{', '}'>>> {
};
struct read_join : p::seq<kw_joined, p::must<string_lit>> {};
struct read_each : p::seq<kw_for, p::must<ident>, p::must<kw_in>, p::must<domain>, p::opt<param_filter>, p::must<colon>,
                          p::must<expr>, p::opt<read_join>> {};
struct hole_expected : p::failure {};
struct hole_close : p::one<'}'> {};
struct read_hole;
// Inside `{if ...}` a `|` parts the two texts; no comment or line break is skipped there.
struct read_if_text
    : p::plus<p::sor<p::seq<p::one<'\\'>, p::must<read_escape>>, p::not_one<'"', '\\', '\n', '{', '}', '|'>>> {};
struct read_branch : p::star<p::sor<read_if_text, read_hole>> {};
struct read_alt : p::seq<p::one<'|'>, read_branch> {};
struct read_if : p::seq<kw_if, expr, p::one<':'>, p::star<p::one<' '>>, read_branch, p::opt<read_alt>> {};
struct read_hole
    : p::seq<p::one<'{'>, _, p::sor<read_each, read_if, expr, p::must<hole_expected>>, p::must<hole_close>> {};
struct read_close : p::one<'"'> {};
struct stray_brace : p::failure {};
struct reading
    : tok<p::seq<p::one<'"'>, p::star<p::sor<read_text, read_hole, p::seq<p::one<'}'>, p::must<stray_brace>>>>,
                 p::must<read_close>>> {};
struct reads_clause : p::seq<kw_reads, p::must<reading>> {};
struct move_decl
    : p::seq<kw_move, p::must<ident>, p::must<move_params>, p::opt<reads_clause>, p::opt<guard>, p::must<block>> {};
struct otherwise_decl : p::seq<kw_otherwise, p::must<ident>, p::opt<reads_clause>, p::must<block>> {};
struct chance_of : p::seq<kw_chance, p::must<expr>> {};
struct chance_body : p::seq<chance_of, p::must<block>> {};
struct rule_decl : p::sor<move_decl, otherwise_decl> {};
struct override_rule : p::seq<kw_override, p::must<rule_decl>> {};  // in `extend phase`: replaces a rule
struct removed_rule : p::seq<p::sor<kw_move, kw_otherwise>, p::must<ident>> {};
struct remove_rule : p::seq<kw_remove, p::must<removed_rule>> {};  // in `extend phase`: drops a rule
struct rule_expected : p::failure {};
struct stray_rule : p::seq<p::not_at<p::sor<p::one<'}'>, p::eof>>, p::must<rule_expected>> {};
struct phase_item : recover<p::sor<move_decl, otherwise_decl, override_rule, remove_rule, stray_rule>, level::rule> {};
struct phase_rules : p::seq<lbrace, p::star<phase_item>, p::must<rbrace>> {};
struct phase_body : p::sor<chance_body, phase_rules, p::failure> {};
struct phase_decl : p::seq<kw_phase, p::must<ident>, p::must<phase_body>> {};
// `invariant [NAME] "text": EXPR`: a variant overrides or removes it by its NAME, else by its text.
struct invariant_decl : p::seq<kw_invariant, p::opt<ident>, p::must<string_lit>, p::must<colon>, p::must<expr>> {};
struct limit_decl : p::seq<kw_limit, p::must<ident>, p::must<expr>> {};
struct display_pieces : p::seq<kw_pieces, p::must<kw_at>, p::must<ident>, p::must<kw_by>, p::must<ident>> {};
// `display hand VAR`: VAR holds the dice still to play (a variable named `hand` is `display hand`).
struct display_hand : p::seq<kw_hand, ident> {};
struct display_what : p::sor<display_pieces, display_hand, ident, p::failure> {};
struct display_decl : p::seq<kw_display, p::must<display_what>> {};
// `repetitions compare PART, ...`: what `repetitions` compares (a variable, `mover`, `phase`),
// a part counting only when its `when COND` (made of parameters) holds.
struct compared_when : p::seq<kw_when, p::must<expr>> {};
struct compared_part : p::seq<ident, p::opt<compared_when>> {};
struct repetitions_decl
    : p::seq<kw_repetitions, p::must<kw_compare>, p::must<compared_part>, p::star<comma, p::must<compared_part>>> {};
// `directions N, E, S, W` or `directions compass`, `directions up(0, -1), ...`: the board's
// directions, each a step (dx, dy) between the points where sites are drawn, or a named set of them.
struct direction_comma : comma {};
struct direction_step : p::seq<lparen, p::must<expr>, p::must<direction_comma>, p::must<expr>, p::must<rparen>> {};
struct direction_item : p::seq<ident, p::opt<direction_step>> {};
struct directions_decl : p::seq<kw_directions, p::must<direction_item>, p::star<comma, p::must<direction_item>>> {};
// `coordinates from bottom|top [without LETTER]`: grid sites named a1, b1, ... (columns lettered
// from the left, rows numbered from the bottom or the top edge; a letter may be left out).
struct coordinates_from : kw_from {};
struct coordinates_skip : p::seq<kw_without, p::must<ident>> {};
struct coordinates_decl : p::seq<kw_coordinates, p::must<coordinates_from>, p::must<ident>, p::opt<coordinates_skip>> {
};
// `ai { ... }`: what only the computer players read: definitions (`evaluate` and its helpers)
// and search settings `KEY VALUE` (docs/agents.md). The rules cannot call what it defines.
struct ai_setting : p::seq<ident, p::must<expr>> {};
struct ai_entry : p::sor<def_decl, ai_setting, p::failure> {};
struct ai_item : p::seq<p::opt<kw_override>, p::must<ai_entry>> {};
struct ai_decl : p::seq<kw_ai, p::must<lbrace>, p::star<p::not_at<rbrace>, ai_item>, p::must<rbrace>> {};
// `safety { ... }`: the engine's bounds, apart from the rules: `limit moves|work|history N` and
// the parameters that only bound how long a move may run on (a relay's laps). Both mean what they
// mean outside the block; the block says to readers and tools that they are not rules.
struct safety_override : p::seq<kw_override, p::must<param_decl>> {};
struct safety_entry : p::sor<limit_decl, param_decl, safety_override, p::failure> {};
struct safety_item : p::seq<p::not_at<rbrace>, p::must<safety_entry>> {};
struct safety_decl : p::seq<kw_safety, p::must<lbrace>, p::star<safety_item>, p::must<rbrace>> {};

// `turn order [backwards when COND] [skips NAME when COND]`: the order of play, declared once.
struct turn_backwards : p::seq<kw_backwards, p::must<kw_when>, p::must<expr>> {};
struct turn_skips : p::seq<kw_skips, p::must<ident>, p::must<kw_when>, p::must<expr>> {};
struct turn_order_decl : p::seq<kw_turn, p::must<kw_order>, p::opt<turn_backwards>, p::opt<turn_skips>> {};

// A variant's `override KIND NAME ...` replaces its base's declaration of that name and kind;
// `extend phase NAME { ... }` adds rules to a base's phase, or replaces some with `override move`.
// `override on EVENT(...)` replaces every handler of the event; `remove on EVENT` and
// `remove invariant NAME|"text"` drop the base's.
struct replaceable : p::sor<param_decl, players_decl, pieces_decl, const_decl, var_decl, region_decl, track_decl,
                            dice_decl, def_decl, fact_decl, shape_decl, board_decl, event_decl, on_decl, phase_decl,
                            invariant_decl, turn_order_decl, directions_decl, coordinates_decl, repetitions_decl> {};
struct override_decl : p::seq<kw_override, p::must<replaceable>> {};
struct removed_handler : p::seq<kw_on, p::must<ident>> {};
struct invariant_named : p::sor<ident, string_lit> {};
struct removed_invariant : p::seq<kw_invariant, p::must<invariant_named>> {};
struct removable : p::sor<removed_handler, removed_invariant, p::failure> {};
struct remove_decl : p::seq<kw_remove, p::must<removable>> {};
struct extend_decl : p::seq<kw_extend, p::must<kw_phase>, p::must<ident>, p::must<phase_rules>> {};

struct decl
    : p::sor<header, import_decl, about_decl, param_decl, players_decl, pieces_decl, const_decl, var_decl, region_decl,
             track_decl, dice_decl, def_decl, fact_decl, shape_decl, board_decl, event_decl, on_decl, setup_decl,
             phase_decl, invariant_decl, limit_decl, display_decl, repetitions_decl, directions_decl, coordinates_decl,
             ai_decl, safety_decl, turn_order_decl, override_decl, remove_decl, extend_decl> {};
struct declaration_expected : p::failure {};
struct stray_decl : p::seq<p::not_at<p::eof>, p::must<declaration_expected>> {};
struct top_item : recover<p::sor<decl, stray_decl>, level::declaration> {};
struct end_of_file : p::eof {};
struct file : p::seq<_, p::star<top_item>, p::must<end_of_file>> {};

}  // namespace keli::grammar
