// The positions a state has been through (runtime/past.hpp): remembering one, letting go of many.
#include "runtime/past.hpp"

namespace keli::runtime {

Past::~Past() {
  PastPtr p = std::move(before);
  while (p && p.use_count() == 1) p = std::move(p->before);
}

PastPtr remember_position(const int32_t* s, const lang::HistoryLayout& h, const PastPtr& before) {
  const int64_t count = before ? before->view.count + 1 : 1;
  if (before && before->view.count > h.capacity) return before;  // overflowed already: kept as it is
  auto link = std::make_shared<Past>();
  if (count > h.capacity) {
    link->view.count = static_cast<int64_t>(h.capacity) + 1;
    return link;
  }
  link->parts.reserve(static_cast<size_t>(h.parts));
  for (int r = 0; r < h.nranges; ++r)
    for (int32_t i = h.ranges[2 * r]; i < h.ranges[2 * r + 1]; ++i) link->parts.push_back(s[i]);
  link->before = before;
  link->view = lang::PastView{lang::stored_key(s, h), link->parts.data(), view_of(before), count};
  return link;
}

int64_t link_bytes(const PastPtr& p) {
  constexpr int64_t kSharedCount = 32;  // make_shared's control block, about
  return p ? static_cast<int64_t>(sizeof(Past) + p->parts.capacity() * sizeof(int32_t)) + kSharedCount : 0;
}

bool same_past(const PastPtr& a, const PastPtr& b) {
  const Past* x = a.get();
  const Past* y = b.get();
  for (; x && y && x != y; x = x->before.get(), y = y->before.get())
    if (x->view.count != y->view.count || x->view.key != y->view.key || x->parts != y->parts) return false;
  return x == y;
}

}  // namespace keli::runtime
