// Strict readers of scenario YAML values, and the check of a whole document for keys given twice
// (see yaml_read.hpp). Every failure carries the node's mark, so it is reported as FILE:LINE:COL.
#include "scenario/yaml_read.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "diag/diagnostics.hpp"
#include "lang/limits.hpp"

namespace keli::scenario {

void fail(const YAML::Node& at, std::string message, std::string hint) {
  throw Failure{at.Mark(), std::move(message), std::move(hint), false};
}

void unreadable(const YAML::Node& at, std::string message, std::string hint) {
  throw Failure{at.Mark(), std::move(message), std::move(hint), true};
}

namespace {

// The count of a document's values as its readers see them, each use of an alias counting its
// whole value again, found with each distinct collection walked once: yaml-cpp gives an alias the
// very node of its anchor, so a collection met again (the same node: YAML::Node::is) adds the
// count kept for it. Ten aliases to a list of a million values cost ten look-ups, not ten
// million visits; an alias met inside its own value is a cycle, which never ends.
class DocumentWalk {
 public:
  explicit DocumentWalk(const YAML::Node& root) : root_(root) {}

  void run() {
    open(root_);
    while (!stack_.empty()) {
      Frame& f = stack_.back();
      if (f.next == f.kids.size()) {
        int64_t count = f.count;
        seen_[f.entry].count = count;
        seen_[f.entry].done = true;
        stack_.pop_back();
        if (!stack_.empty()) add(stack_.back().count, count);
        continue;
      }
      YAML::Node kid = f.kids[f.next++];
      if (kid.IsSequence() || kid.IsMap()) {
        if (const Seen* s = find(kid)) {
          if (!s->done) too_many();  // a cycle: the value holds itself
          add(stack_.back().count, s->count);
        } else {
          open(kid);
        }
      } else {
        add(f.count, 1);
      }
    }
  }

 private:
  struct Seen {
    YAML::Node node;
    int64_t count = 0;
    bool done = false;  // false while its own values are being counted
  };
  struct Frame {
    std::vector<YAML::Node> kids;  // a sequence's items or a map's values
    size_t next = 0;
    int64_t count = 1;  // the collection itself, then what its values hold
    size_t entry = 0;   // its Seen in seen_
  };

  [[noreturn]] void too_many() const {
    unreadable(root_,
               fmt::format("this file has more than {} values (counting each use of an alias)", lang::kMaxYamlNodes),
               "each use of an alias counts its whole value again; an anchor used inside its own value never ends");
  }

  void add(int64_t& count, int64_t more) const {
    count += more;  // both at most kMaxYamlNodes + 1: no overflow
    if (count > lang::kMaxYamlNodes) too_many();
  }

  // Distinct collections are found by where they start and their kind (an alias's node starts
  // where its anchor's does), then told apart by identity.
  static std::pair<size_t, int> place(const YAML::Node& n) {
    return {static_cast<size_t>(n.Mark().pos), static_cast<int>(n.Type())};
  }
  const Seen* find(const YAML::Node& n) const {
    auto it = by_place_.find(place(n));
    if (it == by_place_.end()) return nullptr;
    for (size_t i : it->second)
      if (seen_[i].node.is(n)) return &seen_[i];
    return nullptr;
  }

  // A collection met for the first time: its keys checked (a map's), its values to count.
  void open(const YAML::Node& n) {
    Frame f;
    if (n.IsSequence()) {
      for (const auto& x : n) f.kids.push_back(x);
    } else if (n.IsMap()) {
      std::map<std::string, YAML::Mark> keys;
      for (const auto& kv : n) {
        if (!kv.first.IsScalar()) unreadable(kv.first, "a key must be a single name, not a list or a map");
        auto [it, fresh] = keys.emplace(kv.first.Scalar(), kv.first.Mark());
        if (!fresh)
          unreadable(
              kv.first,
              fmt::format("the key '{}' is given twice (first on line {})", kv.first.Scalar(), it->second.line + 1),
              "YAML keeps one value per key: remove or rename one of them");
        f.kids.push_back(kv.second);
      }
    }
    f.entry = seen_.size();
    seen_.push_back(Seen{n});
    by_place_[place(n)].push_back(f.entry);
    stack_.push_back(std::move(f));
  }

  const YAML::Node& root_;
  std::vector<Seen> seen_;
  std::map<std::pair<size_t, int>, std::vector<size_t>> by_place_;
  // An explicit stack, not recursion: a deeply nested document cannot overflow ours. It holds
  // the collections being counted, each at most once (a second would be a cycle), and every
  // value of those, so it never holds more than the document's own values.
  std::vector<Frame> stack_;
};

}  // namespace

void check_document(const YAML::Node& root) {
  if (root.IsSequence() || root.IsMap()) DocumentWalk(root).run();
}

void only_keys(const YAML::Node& map, const std::vector<std::string>& known, const std::string& what, bool extensions) {
  for (const auto& kv : map) {
    const std::string& key = kv.first.Scalar();
    if (extensions && key.rfind("x-", 0) == 0) continue;
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      std::string hint = diag::suggest(key, known);
      if (extensions && hint.empty()) hint = "a key that only holds YAML anchors begins with 'x-'";
      unreadable(kv.first, fmt::format("unknown {} key '{}'", what, key), hint);
    }
  }
}

namespace {
const char* kind_of(const YAML::Node& n) {
  return n.IsMap() ? "a map" : n.IsSequence() ? "a list" : n.IsNull() ? "nothing" : "a single value";
}
}  // namespace

void need_map(const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) unreadable(n, fmt::format("{} must be a map of names to values, not {}", what, kind_of(n)));
}

void need_list(const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence())
    unreadable(n, fmt::format("{} must be a list, not {}", what, kind_of(n)),
               n.IsScalar() ? fmt::format("write [{}]", n.Scalar()) : "");
}

std::string text(const YAML::Node& n, const std::string& what) {
  if (!n.IsScalar()) unreadable(n, fmt::format("{} must be a single value, not {}", what, kind_of(n)));
  return n.Scalar();
}

bool boolean(const YAML::Node& n, const std::string& what) {
  std::string t = text(n, what);
  if (t == "true") return true;
  if (t == "false") return false;
  unreadable(n, fmt::format("{} is true or false, not '{}'", what, t));
}

std::vector<std::string> texts(const YAML::Node& n, const std::string& what) {
  need_list(n, what);
  std::vector<std::string> out;
  for (const auto& x : n) out.push_back(text(x, fmt::format("each entry of {}", what)));
  return out;
}

bool parse_number(const std::string& t, int32_t& out) {
  size_t i = t.size() > 1 && (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (i == t.size()) return false;
  int64_t v = 0;
  for (size_t k = i; k < t.size(); ++k) {
    if (t[k] < '0' || t[k] > '9') return false;
    v = v * 10 + (t[k] - '0');
    if (v > lang::kMaxLiteral + 1) return false;  // no further digits can bring it back in range
  }
  if (t[0] == '-') v = -v;
  if (v > lang::kMaxLiteral || v < -lang::kMaxLiteral - 1) return false;
  out = static_cast<int32_t>(v);
  return true;
}

int32_t number(const YAML::Node& n, const std::string& what) {
  std::string t = text(n, what);
  int32_t v = 0;
  if (!parse_number(t, v))
    unreadable(n, fmt::format("{} is a whole number from {} to {}, not '{}'", what, -lang::kMaxLiteral - 1,
                              lang::kMaxLiteral, t));
  return v;
}

std::vector<int32_t> roll_values(const YAML::Node& at, const std::string& step) {
  std::vector<int32_t> vals;
  std::istringstream in(step.substr(4));
  for (std::string word; in >> word;) {
    int32_t v = 0;
    if (!parse_number(word, v)) unreadable(at, fmt::format("'{}' is not a face: write 'roll' and whole numbers", word));
    vals.push_back(v);
  }
  return vals;
}

}  // namespace keli::scenario
