// The Catch2 main for keli_tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
