// A lower layer reaching up: the layer check must reject this tree.
#pragma once
#include "high/top.hpp"
