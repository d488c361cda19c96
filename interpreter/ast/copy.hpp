// A deep copy of a parsed module, for callers that parse a file once and check it many times
// (the fuzz targets keep Keli's own stdlib/ and games/ parsed): the checker annotates the tree it
// is given in place, so each check needs a tree of its own.
#pragma once

#include "ast/ast.hpp"

namespace keli::ast {

// Every node of `m` copied, each span (and each file index) moved to `file`: the index the copy's
// text has in the SourceSet it is checked with. Spans that point nowhere stay so.
Module copy_module(const Module& m, int file);

}  // namespace keli::ast
