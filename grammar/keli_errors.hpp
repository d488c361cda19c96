// The one table of syntax error messages: what the parser expected when a must<> failed.
// A rule used inside must<> without an entry here fails to compile (RequireMessage).
#pragma once

#include "keli_grammar.hpp"

namespace keli::grammar {

template <typename Rule>
inline constexpr const char* error_message = nullptr;

#define KELI_EXPECT(rule, text) \
  template <>                   \
  inline constexpr const char* error_message<rule> = text
KELI_EXPECT(str_close, "unterminated string: expected '\"' before the end of the line");
KELI_EXPECT(str_escape, "unknown escape in a string: use \\\" for a quote, \\\\ for a backslash, \\n for a new line");
KELI_EXPECT(expr, "expected an expression");
KELI_EXPECT(expr_list, "expected one or more expressions separated by ','");
KELI_EXPECT(unary, "expected an operand");
KELI_EXPECT(multiplicative, "expected an operand after the operator");
KELI_EXPECT(additive, "expected an operand after the operator");
KELI_EXPECT(negation, "expected a condition after 'not', 'and' or 'or'");
KELI_EXPECT(conjunction, "expected a condition after 'or'");
KELI_EXPECT(kw_then, "expected 'then' in 'if ... then ... else ...'");
KELI_EXPECT(kw_else, "expected 'else' in 'if ... then ... else ...'");
KELI_EXPECT(kw_in, "expected 'in'");
KELI_EXPECT(kw_to, "expected 'to' in 'add SITE to REGION'");
KELI_EXPECT(kw_from, "expected 'from' in 'remove VALUE from COLLECTION'");
KELI_EXPECT(kw_of, "expected 'of' in 'list of TYPE' or 'set of TYPE'");
KELI_EXPECT(coll_type, "expected a collection type after ':': 'list of TYPE' or 'set of TYPE'");
KELI_EXPECT(coll_elem, "expected what the collection holds: site, player, piece or a range 'A..B'");
KELI_EXPECT(ident, "expected a name");
KELI_EXPECT(ident_list, "expected one or more names separated by ','");
KELI_EXPECT(domain, "expected what to range over: 'A..B', a region, a track, 'sites', 'seats' or 'pieces'");
KELI_EXPECT(colon, "expected ':'");
KELI_EXPECT(assign_eq, "expected '=' (or ': TYPE = DEFAULT' after a parameter's name)");
KELI_EXPECT(lbrace, "expected '{'");
KELI_EXPECT(rbrace, "expected '}' (or a statement or declaration that belongs inside the braces)");
KELI_EXPECT(rbrack, "expected ']'");
KELI_EXPECT(rparen, "expected ')'");
KELI_EXPECT(block, "expected a block '{ ... }'");
KELI_EXPECT(string_lit, "expected a string in double quotes");
KELI_EXPECT(param_type, "expected a parameter type: 'bool', 'int', 'int in A..B', 'int in {...}' or '{choice, ...}'");
KELI_EXPECT(int_allowed, "expected the allowed values: 'A..B' or '{v1, v2, ...}'");
KELI_EXPECT(type_name, "expected a type: int, bool, site, player or piece");
KELI_EXPECT(dim, "expected what the table is indexed by: site, player, piece or a range 'A..B'");
KELI_EXPECT(faces, "expected a list of faces '[v1, v2, ...]'");
KELI_EXPECT(dice_spec, "expected dice: '[faces], [faces], ...' or 'N of [faces]'");
KELI_EXPECT(formals, "expected a parameter list '(name: type, ...)'");
KELI_EXPECT(def_body, "expected '= expression' or a block '{ ... }'");
KELI_EXPECT(body_expr, "expected '= count(...)' or '= sum(...)': a fact is one expression (docs/language.md)");
KELI_EXPECT(board_body, "expected a block '{ ... }' or a shape call such as 'two_rows(7)'");
KELI_EXPECT(phase_body, "expected the phase's rules '{ move ... }' or 'chance DICE { ... }'");
KELI_EXPECT(kw_at, "expected 'at' in 'display pieces at SITE_OF by OWNER_OF'");
KELI_EXPECT(kw_by, "expected 'by' in 'display pieces at SITE_OF by OWNER_OF'");
KELI_EXPECT(display_what,
            "expected what to display: a variable per site or per player, a region, 'pieces at F by G' or 'hand VAR'");
KELI_EXPECT(direction_item,
            "expected a direction: a name with its step 'up(0, -1)', or orthogonal, diagonal, compass or hex");
KELI_EXPECT(direction_comma, "expected ',' between a direction's two numbers: 'up(0, -1)'");
KELI_EXPECT(coordinates_from, "expected 'from' in 'coordinates from bottom' (or 'from top')");
KELI_EXPECT(safety_entry,
            "expected 'limit moves N', 'limit work N', 'limit history N' or 'param NAME: ...': the "
            "'safety' block holds the engine's bounds, and rules go outside it");
KELI_EXPECT(param_decl,
            "expected 'param NAME ...': in the 'safety' block only a parameter can be overridden (a "
            "variant's limit replaces its base's without 'override')");
KELI_EXPECT(ai_entry, "expected a definition 'def NAME(...)' or a setting such as 'cutoff 20' (docs/agents.md)");
KELI_EXPECT(call_suffix, "expected arguments '( ... )'");
KELI_EXPECT(handler_params, "expected the event's parameter names '(a, b)'");
KELI_EXPECT(reading, "expected how the move reads, in double quotes: reads \"{pc} to {target(pc)}\"");
KELI_EXPECT(read_close, "unterminated 'reads' text: expected '\"' before the end of the line");
KELI_EXPECT(read_escape,
            "unknown escape in a 'reads' text: use \\{ and \\} for braces, \\\" for a quote, \\\\ for a backslash, \\| "
            "for a bar");
KELI_EXPECT(hole_expected, "expected a value between '{' and '}' in a 'reads' text, or 'for x in D: value'");
KELI_EXPECT(hole_close, "expected '}' to close the '{' of a 'reads' text (write \\{ for a brace)");
KELI_EXPECT(stray_brace, "a '}' in a 'reads' text closes no '{' (write \\} for a brace)");
KELI_EXPECT(move_params, "expected the move's parameters '(name in domain, ...)'");
KELI_EXPECT(statement_expected, "expected '}' (or a statement or declaration that belongs inside the braces)");
KELI_EXPECT(rule_expected, "expected a rule 'move NAME(...) { ... }' or 'otherwise NAME { ... }', or '}'");
KELI_EXPECT(rule_decl, "expected 'move NAME(...) { ... }' or 'otherwise NAME { ... }' after 'override'");
KELI_EXPECT(replaceable,
            "expected the declaration that 'override' replaces: param, players, pieces, const, var, region, track, "
            "dice, def, shape, board, event, on, phase, invariant, turn order, directions, coordinates or repetitions "
            "compare");
KELI_EXPECT(kw_order, "expected 'order' in 'turn order [backwards when COND] [skips NAME when COND]'");
KELI_EXPECT(kw_when, "expected 'when'");
KELI_EXPECT(kw_compare, "expected 'compare' in 'repetitions compare PART, ...'");
KELI_EXPECT(compared_part, "expected what a repetition compares: a variable, 'mover' or 'phase'");
KELI_EXPECT(distinct_by, "expected 'by' in 'distinct by KEY'");
KELI_EXPECT(removable, "expected what 'remove' drops from the base game: 'on EVENT' or 'invariant NAME'");
KELI_EXPECT(invariant_named, "expected the invariant's name, or its text in double quotes");
KELI_EXPECT(removed_rule, "expected the rule 'remove' drops: 'move NAME' or 'otherwise NAME'");
KELI_EXPECT(kw_phase, "expected 'phase' in 'extend phase NAME { ... }'");
KELI_EXPECT(phase_rules, "expected the rules to add or replace '{ move ... }'");
KELI_EXPECT(
    declaration_expected,
    "expected a declaration (import, about, param, players, var, const, region, track, dice, def, shape, "
    "board, event, on, setup, phase, invariant, limit, display, repetitions compare, directions, coordinates, turn "
    "order, override, remove or extend)");
KELI_EXPECT(
    end_of_file,
    "expected a declaration (import, about, param, players, var, const, region, track, dice, def, shape, "
    "board, event, on, setup, phase, invariant, limit, display, repetitions compare, directions or coordinates)");
#undef KELI_EXPECT

// The control class handed to PEGTL: raise with the table's message, never a rule's C++ name.
struct error_table {
  template <typename Rule>
  static constexpr bool raise_on_failure = false;
  template <typename Rule>
  static constexpr const char* message = error_message<Rule>;
};
template <typename Rule>
using control = tao::pegtl::must_if<error_table>::control<Rule>;

}  // namespace keli::grammar
