// The native engine's emitter: the checked, optimized program as one C++ translation unit that
// implements the C interface of native/abi.h. The same program always gives the same text.
#pragma once

#include <string>

#include "compile/program.hpp"

namespace keli::native {

// Everything but the module table (so the text can be hashed first).
std::string emit(const compile::Program& p);
// The exported table naming the entry points and the program's hash.
std::string module_table(const compile::Program& p, const std::string& hash);

}  // namespace keli::native
