// The optimizer: inlining of small expression definitions, constant folding and flat index
// tables, applied to a compiled program before it runs (compile/optimize.cpp says what and why).
#pragma once

#include "compile/program.hpp"

namespace keli::compile {

// The flat layouts the evaluator reads tables by (Program::var_access, const_access); every
// program needs them, optimized or not.
void build_access_tables(Program& p);

// Rewrites p in place; every rule, guard and handler computes what it computed before.
void optimize(Program& p);

}  // namespace keli::compile
