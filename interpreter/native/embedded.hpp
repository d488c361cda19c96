// The headers pasted into every generated translation unit (native/abi.h, lang/operators.hpp,
// lang/arith.hpp, lang/history.hpp, lang/places.hpp, lang/collections.hpp), embedded at build time so generated code
// needs no source tree.
#pragma once

namespace keli::native {
extern const char* const kEmbeddedAbi;
extern const char* const kEmbeddedOperators;
extern const char* const kEmbeddedArith;
extern const char* const kEmbeddedHistory;
extern const char* const kEmbeddedPlaces;
extern const char* const kEmbeddedCollections;
}  // namespace keli::native
