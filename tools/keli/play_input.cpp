// What a person's line means in keli play: a move's number, its notation or call (any case), or
// the start of exactly one; else a suggestion, or the reason a move that reads so is not legal.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "play_session.hpp"
#include "rulebook/why_not.hpp"

namespace keli::cli {

using rulebook::lower;

Pick pick_move(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Game::Choice>& offered,
               const std::string& line, const check::Checked& ck, const SourceSet& src) {
  Pick out;
  try {
    size_t used = 0;
    long n = std::stol(line, &used);
    if (used == line.size()) {
      if (n >= 1 && n <= static_cast<long>(offered.size()))
        out.index = static_cast<int>(n - 1);
      else
        out.message = fmt::format("there is no move {}: type 1..{}", n, offered.size());
      return out;
    }
  } catch (...) {
  }
  const std::string want = lower(line);
  std::vector<int> starts;
  for (size_t i = 0; i < offered.size(); ++i) {
    std::string text = lower(offered[i].text), call = lower(g.call_text(offered[i].move));
    if (text == want || call == want) {
      out.index = static_cast<int>(i);
      return out;
    }
    if (text.rfind(want, 0) == 0 || call.rfind(want, 0) == 0) starts.push_back(static_cast<int>(i));
  }
  if (starts.size() == 1) {
    out.index = starts[0];
    return out;
  }
  if (starts.size() > 1) {
    std::vector<std::string> names;
    for (int i : starts) names.push_back(fmt::format("{}) {}", i + 1, offered[i].text));
    out.message = fmt::format("'{}' could be {}: type more of it, or the number", line, fmt::join(names, ", "));
    return out;
  }
  // A move that reads so but is not legal now: which test fails, in words (rulebook/why_not.hpp).
  if (rulebook::WhyNot why = rulebook::why_not(ck, src, g, s, line); !why.failed.empty()) {
    out.message = why.message;
    return out;
  }
  size_t best = SIZE_MAX;
  int near = -1;
  for (size_t i = 0; i < offered.size(); ++i) {
    size_t d = rulebook::edit_distance(want, lower(offered[i].text));
    if (d < best) best = d, near = static_cast<int>(i);
  }
  out.message = fmt::format("'{}' is not one of your moves", line);
  if (near >= 0 && best <= std::max<size_t>(3, want.size() / 2))
    out.message += fmt::format("; did you mean {}) {}?", near + 1, offered[near].text);
  out.message += fmt::format(" (type 1..{}, a move as listed or its start; '?' explains them)", offered.size());
  return out;
}

}  // namespace keli::cli
