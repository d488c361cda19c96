// The depth guard of the grammar: nest<R...> matches R... one level deeper, so that brackets,
// blocks, conditionals and prefix operators opened inside one another cannot recurse the parser
// past its stack. The bound comes with the syntax_log state (parse.cpp sets it from the
// language's limits); crossing it stops the whole parse with too_deep, which recovery does not
// catch, since skipping one statement of a deep nest would only meet the next level.
#pragma once

#include <tao/pegtl.hpp>

#include "keli_recovery.hpp"

namespace keli::grammar {

// Thrown when nesting passes syntax_log::max_depth: where the level that crossed it opens.
struct too_deep {
  size_t byte, line, column;
};

template <typename... Rules>
struct nest {
  using rule_t = nest;
  using subs_t = p::type_list<p::seq<Rules...>>;

  template <p::apply_mode A, p::rewind_mode M, template <typename...> class Action,
            template <typename...> class Control, typename ParseInput, typename... States>
  static bool match(ParseInput& in, States&&... st) {
    syntax_log* log = recovery::find_log(st...);
    if (log && log->max_depth > 0 && log->depth >= log->max_depth) {
      auto pos = in.position();
      throw too_deep{pos.byte, pos.line, pos.column};
    }
    struct open_level {  // leaves the level however the match ends, exceptions included
      syntax_log* log;
      explicit open_level(syntax_log* l) : log(l) {
        if (log) ++log->depth;
      }
      ~open_level() {
        if (log) --log->depth;
      }
    } guard(log);
    return Control<p::seq<Rules...>>::template match<A, M, Action, Control>(in, st...);
  }
};

}  // namespace keli::grammar
