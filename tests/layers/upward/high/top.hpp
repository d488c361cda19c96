// A higher layer: may include the lower one.
#pragma once
#include "low/bottom.hpp"
