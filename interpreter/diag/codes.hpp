// The one table of diagnostics: stable code, severity and a one-line summary for each.
// docs/diagnostics.md documents every row; tests/diagnostics/ holds a failing file per code.
#pragma once

// X(id, code, severity, summary)
#define KELI_DIAGNOSTICS(X)                                                                                   \
  X(syntax, "E001", Error, "the text does not follow the grammar")                                            \
  X(unreadable_file, "E002", Error, "a file (the game, an import or a base) cannot be read")                  \
  X(duplicate_header, "E003", Error, "a file may extend at most one base game")                               \
  X(too_deep, "E004", Error, "brackets, blocks, operators or calls nested deeper than a safety bound")        \
  X(forbidden_file, "E005", Error, "a file outside the folders games come from, or not Keli source")          \
  X(import_cycle, "E006", Error, "files that import or extend one another in a cycle")                        \
  X(unknown_name, "E101", Error, "a name that nothing declares")                                              \
  X(duplicate_name, "E102", Error, "a name declared twice")                                                   \
  X(unknown_type, "E103", Error, "a type name that does not exist")                                           \
  X(unknown_event, "E104", Error, "a handler or emit names no declared event")                                \
  X(unknown_choice, "E105", Error, "a value that is not one of an enumeration's choices")                     \
  X(unknown_override, "E106", Error, "a variant sets, overrides or extends something its base does not have") \
  X(type_mismatch, "E201", Error, "an expression of the wrong type")                                          \
  X(wrong_arity, "E202", Error, "a call with the wrong number of arguments")                                  \
  X(not_callable, "E203", Error, "a call of something that is not a function")                                \
  X(bad_index, "E204", Error, "indexing something that is not a table, or with too many indices")             \
  X(not_assignable, "E205", Error, "an assignment to something that cannot change")                           \
  X(bad_domain, "E206", Error, "a loop or move parameter over something that is not a domain")                \
  X(missing_index, "E207", Error, "a table used without all its indices")                                     \
  X(number_too_large, "E208", Error, "a number too large for the game's 32-bit state")                        \
  X(too_large, "E209", Error, "a table, dice set or move's choices larger than a safety bound")               \
  X(unchecked_none, "E210", Error, "a value that may be 'none' used where a value is needed, unchecked")      \
  X(bad_param_value, "E301", Error, "a parameter value outside its allowed values")                           \
  X(unknown_param, "E302", Error, "a parameter that the game does not declare")                               \
  X(bad_param_decl, "E303", Error, "a parameter declaration whose allowed values are empty or wrong")         \
  X(recursion, "E401", Error, "a function that calls itself, directly or through others")                     \
  X(missing_decl, "E402", Error, "a declaration every game needs is missing")                                 \
  X(misplaced, "E403", Error, "a statement or call used where it is not allowed")                             \
  X(missing_return, "E404", Error, "a function with a result type that can end without one")                  \
  X(not_constant, "E405", Error, "a value that must be known before play is not")                             \
  X(handler_arity, "E406", Error, "a handler whose parameters do not match its event")                        \
  X(bad_fact, "E407", Error, "a 'fact' whose value the engine cannot keep up to date")                        \
  X(eval_error, "E501", Error, "building the board or tables failed")                                         \
  X(runtime, "E601", Error, "the rules failed during play (index outside a table, endless loop, ...)")        \
  X(bad_trace, "E701", Error, "a trace file that cannot be read or does not match its game")                  \
  X(bad_scenario, "E702", Error, "a scenario or settings file that cannot be read")                           \
  X(scenario_failed, "E703", Error, "a scenario whose expectation does not hold")                             \
  X(invariant_failed, "E704", Error, "a declared invariant that does not hold")                               \
  X(bad_step, "E705", Error,                                                                                  \
    "a move, throw or command of a program (step session, moves file) not legal or unreadable")               \
  X(bad_output, "E710", Error, "an output file that cannot be written, or that is an input of the command")   \
  X(bad_records, "E711", Error, "a records file that cannot be read, or records that are not one whole run")  \
  X(native_unavailable, "E720", Error,                                                                        \
    "the native engine cannot run here: no compiler, a cache folder not private, a full disk")                \
  X(unused, "W001", Warning, "a definition that nothing uses")                                                \
  X(shadowed, "W002", Warning, "a local name that hides a global one or an outer local")                      \
  X(unused_param, "W003", Warning, "a parameter that nothing reads")                                          \
  X(never_applies, "W004", Warning, "a rule, phase or handler that can never apply")                          \
  X(missing_override, "W005", Warning, "a variant's declaration replaces its base's without 'override'")      \
  X(ambiguous_reads, "W006", Warning, "a move's 'reads' text that leaves out one of its parameters")          \
  X(changes_nothing, "W007", Warning, "a move that changes nothing")                                          \
  X(same_player_again, "W008", Warning, "a move after which the same player always moves again")

namespace keli::diag {
enum class Severity { Error, Warning };
enum class Code {
#define KELI_DIAG_ENUM(id, code, sev, summary) id,
  KELI_DIAGNOSTICS(KELI_DIAG_ENUM)
#undef KELI_DIAG_ENUM
};
struct CodeInfo {
  Code id;
  const char* code;
  Severity severity;
  const char* summary;
};
const CodeInfo& info(Code c);
}  // namespace keli::diag
