// Text to AST for one source file (the PEGTL grammar in grammar/ does the recognising).
#pragma once

#include <optional>

#include "ast/ast.hpp"
#include "diag/diagnostics.hpp"
#include "keli_recovery.hpp"

namespace keli::ast {

// Parses file `file` of `src`. Each syntax error is reported (E001) and recovered from: the module
// holds every declaration that parsed, and counts the errors. Nothing is returned only when the
// parse could not recover at all.
std::optional<Module> parse_module(const SourceSet& src, int file, diag::Diagnostics& diags);

// The errors the grammar recovered from, as E001 diagnostics with a "found ..." hint (and a
// did-you-mean for a misspelt keyword); records in `m` what each broken piece may have declared.
void report_syntax_errors(const SourceSet& src, int file, const grammar::syntax_log& log, Module& m,
                          diag::Diagnostics& diags);

}  // namespace keli::ast
