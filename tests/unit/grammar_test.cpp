// PEGTL's grammar analysis over the whole Keli grammar: no rule can loop forever without
// consuming input (a star of something that may match empty, left recursion). The recovery rule
// and the depth guard are ours, so they say how they consume: exactly as what they wrap
// (analyze_traits below).
#include <catch2/catch.hpp>

#include <tao/pegtl/contrib/analyze.hpp>

#include "keli_grammar.hpp"

namespace tao::pegtl {
template <typename Name, typename Item, keli::grammar::level Lv>
struct analyze_traits<Name, keli::grammar::recover<Item, Lv>> : analyze_seq_traits<Item> {};
template <typename Name, typename... Rules>
struct analyze_traits<Name, keli::grammar::nest<Rules...>> : analyze_seq_traits<Rules...> {};
template <typename Name>
struct analyze_traits<Name, keli::grammar::range_ahead> : analyze_opt_traits<> {};  // looks ahead, consumes nothing
template <typename Name>
struct analyze_traits<Name, keli::grammar::from_ahead> : analyze_opt_traits<> {};  // as range_ahead
template <typename Name>
struct analyze_traits<Name, keli::grammar::reserved> : analyze_any_traits<> {};  // a whole word when it matches
}  // namespace tao::pegtl

namespace keli::test {

TEST_CASE("PEGTL's analysis finds no problem in the grammar", "[grammar]") {
  CHECK(tao::pegtl::analyze<grammar::file>(1) == 0);
  // The analysis is live: a star of something that may match nothing is reported.
  namespace p = tao::pegtl;
  CHECK(p::analyze<p::star<p::opt<p::one<'a'>>>>(-1) > 0);
}

TEST_CASE("the keyword table gives the recovery lists and reserved words", "[grammar]") {
  auto decl = grammar::words_with(grammar::Declaration);
  CHECK(decl.front() == "game");
  CHECK(std::find(decl.begin(), decl.end(), "extend") != decl.end());
  CHECK(std::find(decl.begin(), decl.end(), "remove") != decl.end());  // `remove on EVENT` opens a declaration
  CHECK(grammar::words_with(grammar::Rule) ==
        std::vector<std::string>{"move", "otherwise", "override", "remove"});  // `remove move RULE` opens a rule
  auto reserved = grammar::words_with(grammar::Reserved);
  CHECK(reserved.size() == 20);
  CHECK(std::find(reserved.begin(), reserved.end(), "players") == reserved.end());  // usable as a name
}

}  // namespace keli::test
