// The deepest nesting of frames a program's steps can reach (compile/frames.cpp).
#pragma once

#include "compile/program.hpp"

namespace keli::compile {

// The most frames (calls of definitions, handlers run by events) open at once in any step of p,
// or -1 when a handler can lead back to itself through the events it raises.
int deepest_frames(const Program& p);

}  // namespace keli::compile
