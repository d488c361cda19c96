// What a person's line means in keli play: a move's number, its notation or call (any case), or
// the start of exactly one; else a suggestion, or the reason a move that reads so is not legal.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "play_session.hpp"

namespace keli::cli {

namespace {

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool same_text(const std::string& a, const std::string& b) { return lower(a) == lower(b); }

size_t distance(const std::string& a, const std::string& b) {  // edits from a to b
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The test that failed, in words, with the rule's text for it.
std::string reason(runtime::Game& g, const SourceSet& src, const runtime::Move& m, int node) {
  const compile::Program& p = g.program();
  const compile::Rule& r = p.rules[m.rule];
  std::string what = "its 'when' guard does not hold";
  for (size_t i = 0; i < r.params.size(); ++i) {
    if (node == r.params[i].written_domain) what = fmt::format("'{}' cannot take this value", r.params[i].name);
    if (node == r.params[i].written_filter) what = fmt::format("the 'where' of '{}' does not hold", r.params[i].name);
    if (node == r.params[i].distinct)
      what =
          fmt::format("an earlier value of '{}' with the same 'distinct by' key is listed instead", r.params[i].name);
  }
  if (node < 0 || node >= static_cast<int>(p.spans.size()) || !p.spans[node].valid()) return what;
  std::string line(src.line_text(p.spans[node]));
  size_t b = line.find_first_not_of(" \t");
  return fmt::format("{} ({}: {})", what, src.where(p.spans[node]), b == std::string::npos ? line : line.substr(b));
}

}  // namespace

Pick pick_move(runtime::Game& g, const runtime::State& s, const std::vector<runtime::Game::Choice>& offered,
               const std::string& line, const SourceSet& src) {
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
  // A move that reads so but is not legal now: say which of its tests fails.
  for (const auto& m : g.read_as(s, line, same_text, 100000)) {
    int node = g.why_not(s, m);
    if (node >= 0) {
      out.message = fmt::format("'{}' is not legal now: {}", g.notation(s, m), reason(g, src, m, node));
      return out;
    }
  }
  size_t best = SIZE_MAX;
  int near = -1;
  for (size_t i = 0; i < offered.size(); ++i) {
    size_t d = distance(want, lower(offered[i].text));
    if (d < best) best = d, near = static_cast<int>(i);
  }
  out.message = fmt::format("'{}' is not one of your moves", line);
  if (near >= 0 && best <= std::max<size_t>(3, want.size() / 2))
    out.message += fmt::format("; did you mean {}) {}?", near + 1, offered[near].text);
  out.message += fmt::format(" (type 1..{}, a move as listed or its start; '?' explains them)", offered.size());
  return out;
}

}  // namespace keli::cli
