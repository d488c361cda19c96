// Diagnostics: the code table, collection, rendering (text and JSON) and name suggestions.
#include "diag/diagnostics.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "util/json.hpp"

namespace keli::diag {

const CodeInfo& info(Code c) {
  static const CodeInfo table[] = {
#define KELI_DIAG_ROW(id, code, sev, summary) {Code::id, code, Severity::sev, summary},
      KELI_DIAGNOSTICS(KELI_DIAG_ROW)
#undef KELI_DIAG_ROW
  };
  return table[static_cast<size_t>(c)];
}

void Diagnostics::report(Code code, Span span, std::string message, std::string hint) {
  for (const auto& d : list_)  // one report per place and message, however often a pass meets it
    if (d.code == code && d.span.file == span.file && d.span.line == span.line && d.span.col == span.col &&
        d.message == message)
      return;
  list_.push_back({code, span, std::move(message), std::move(hint)});
}

bool Diagnostics::has_errors() const { return error_count() > 0; }

size_t Diagnostics::error_count() const {
  return std::count_if(list_.begin(), list_.end(),
                       [](const Diagnostic& d) { return info(d.code).severity == Severity::Error; });
}

size_t Diagnostics::warning_count() const { return list_.size() - error_count(); }

void Diagnostics::sort_by_position() {
  std::stable_sort(list_.begin(), list_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.span.file != b.span.file) return a.span.file < b.span.file;
    if (a.span.line != b.span.line) return a.span.line < b.span.line;
    return a.span.col < b.span.col;
  });
}

std::string render(const SourceSet& src, const Diagnostic& d) {
  const CodeInfo& ci = info(d.code);
  const char* sev = ci.severity == Severity::Error ? "error" : "warning";
  std::string out = fmt::format("{}: {}: {} [{}]\n", src.where(d.span), sev, d.message, ci.code);
  std::string_view line = src.line_text(d.span);
  if (d.span.valid() && !line.empty()) {
    std::string gutter = fmt::format("{:>5}", d.span.line);
    out += fmt::format("{} | {}\n", gutter, line);
    std::string pad;
    for (uint32_t i = 1; i < d.span.col && i <= line.size(); ++i) pad += line[i - 1] == '\t' ? '\t' : ' ';
    uint32_t width = std::max<uint32_t>(
        1, std::min<uint32_t>(d.span.len, line.size() + 1 - std::min<uint32_t>(d.span.col, line.size() + 1)));
    out += fmt::format("{} | {}{}\n", std::string(gutter.size(), ' '), pad, std::string(width, '^'));
  }
  if (!d.hint.empty()) out += fmt::format("      = hint: {}\n", d.hint);
  return out;
}

std::string render_json(const SourceSet& src, const std::vector<Diagnostic>& ds) {
  std::string out = "[";
  for (size_t i = 0; i < ds.size(); ++i) {
    const Diagnostic& d = ds[i];
    const CodeInfo& ci = info(d.code);
    out += fmt::format(
        "{}{{\"file\":{},\"line\":{},\"column\":{},\"length\":{},\"severity\":\"{}\",\"code\":\"{}\","
        "\"message\":{},\"hint\":{}}}",
        i ? "," : "", util::json_string(d.span.valid() ? src.file(d.span.file).path : ""), d.span.line, d.span.col,
        d.span.len, ci.severity == Severity::Error ? "error" : "warning", ci.code, util::json_string(d.message),
        util::json_string(d.hint));
  }
  return out + "]";
}

// Damerau-Levenshtein (optimal string alignment) distance; the rows are the caller's, reused.
static size_t edit_distance(std::string_view a, std::string_view b, std::vector<size_t> (&rows)[3]) {
  auto* prev2 = &rows[0];
  auto* prev = &rows[1];
  auto* cur = &rows[2];
  for (auto* r : {prev2, prev, cur}) r->assign(b.size() + 1, 0);
  for (size_t j = 0; j <= b.size(); ++j) (*prev)[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    (*cur)[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      (*cur)[j] = std::min({(*prev)[j] + 1, (*cur)[j - 1] + 1, (*prev)[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])  // two letters swapped: one edit
        (*cur)[j] = std::min((*cur)[j], (*prev2)[j - 2] + 1);
    }
    std::swap(prev2, prev);  // the old prev2 row is overwritten as cur next
    std::swap(prev, cur);
  }
  return (*prev)[b.size()];
}

std::string suggest(std::string_view wrong, const std::vector<std::string>& candidates) {
  // A name is offered when it is at most `allowed` edits away and not the same; a candidate whose
  // length differs by more than that cannot be, so it is not measured (the names in scope of a
  // large game are hundreds, and a misspelt name is measured against each).
  size_t allowed = std::max<size_t>(1, (wrong.size() + 1) / 3);
  size_t best = std::string::npos;
  const std::string* pick = nullptr;
  std::vector<size_t> rows[3];
  for (const auto& c : candidates) {
    size_t gap = c.size() > wrong.size() ? c.size() - wrong.size() : wrong.size() - c.size();
    if (gap > allowed) continue;
    size_t d = edit_distance(wrong, c, rows);
    if (d < best) best = d, pick = &c;
  }
  if (!pick || best > allowed || best == 0) return {};
  return fmt::format("did you mean '{}'?", *pick);
}

}  // namespace keli::diag
