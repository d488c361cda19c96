// The canonical layout of a Keli file, computed from its tokens and the roles the parser gave
// them. The rules are listed in docs/language.md ("Layout") and tools/editor/README.md.
#pragma once

#include <string>
#include <vector>

#include "format/tokens.hpp"

namespace keli::format {

// The file laid out: indentation by brace depth, canonical spaces between tokens, the author's
// line breaks kept except where a rule adds or removes one, blank lines squeezed to one,
// trailing comments aligned, one final newline. Only blanks differ from the input.
std::string layout(const std::vector<Token>& tokens, const Roles& roles);

}  // namespace keli::format
