// The per-thread pool of parse-tree nodes (parse_node.hpp). Under AddressSanitizer a pooled node
// is poisoned until it is handed out again, so a use of a dropped node is still reported.
#include "ast/parse_node.hpp"

#include <new>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define KELI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KELI_ASAN 1
#endif
#endif
#ifdef KELI_ASAN
#include <sanitizer/asan_interface.h>
#define KELI_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define KELI_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define KELI_POISON(p, n) ((void)(p), (void)(n))
#define KELI_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace keli::ast::parse_detail {
namespace {

// Invariant: every block in `free` is sizeof(Node) bytes from ::operator new, poisoned, unowned.
struct Pool {
  std::vector<void*> free;
  Pool() { free.reserve(kMaxPooledNodes); }
  ~Pool() {
    for (void* p : free) {
      KELI_UNPOISON(p, sizeof(Node));
      ::operator delete(p);
    }
  }
};

Pool& pool() {
  thread_local Pool p;
  return p;
}

// Invariant: every list in `spare` is empty and has storage for 1 to kMaxPooledChildCapacity.
struct ChildListPool {
  std::vector<Node::children_t> spare;
  ChildListPool() { spare.reserve(kMaxPooledChildLists); }
};

ChildListPool& child_lists() {
  thread_local ChildListPool p;
  return p;
}

}  // namespace

Node::Node() {
  auto& spare = child_lists().spare;
  if (spare.empty()) return;
  children.swap(spare.back());
  spare.pop_back();
}

Node::~Node() {
  children.clear();  // the children first: they give their own lists back
  auto& spare = child_lists().spare;
  if (children.capacity() > 0 && children.capacity() <= kMaxPooledChildCapacity && spare.size() < kMaxPooledChildLists)
    spare.push_back(std::move(children));
}

void* Node::operator new(std::size_t size) {
  auto& free = pool().free;
  if (size != sizeof(Node) || free.empty()) return ::operator new(size);
  void* p = free.back();
  free.pop_back();
  KELI_UNPOISON(p, sizeof(Node));
  return p;
}

void Node::operator delete(void* p, std::size_t size) noexcept {
  if (!p) return;
  auto& free = pool().free;
  if (size != sizeof(Node) || free.size() >= kMaxPooledNodes) {
    ::operator delete(p);
    return;
  }
  KELI_POISON(p, sizeof(Node));
  free.push_back(p);
}

}  // namespace keli::ast::parse_detail
