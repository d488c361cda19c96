// Text to AST for one source file (the PEGTL grammar in grammar/ does the recognising).
#pragma once

#include <optional>

#include "ast/ast.hpp"
#include "diag/diagnostics.hpp"

namespace keli::ast {

// Parses file `file` of `src`. On a syntax error, reports E001 and returns nothing.
std::optional<Module> parse_module(const SourceSet& src, int file, diag::Diagnostics& diags);

}  // namespace keli::ast
