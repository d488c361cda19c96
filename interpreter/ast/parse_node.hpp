// The parse tree's node: PEGTL's node, allocated from a per-thread pool. PEGTL makes a node at
// every attempt of a selected rule and drops it when the attempt fails (the expression levels
// alone make about ten for each leaf), so the allocator, not the grammar, was most of a parse's
// time, under the sanitizers above all. A freed node goes back to its thread's pool, and its list
// of children (emptied, its storage kept) to another.
#pragma once

#include <cstddef>
#include <tao/pegtl/contrib/parse_tree.hpp>

namespace keli::ast::parse_detail {

// Nodes kept for reuse by each thread; more than this go back to the system allocator. A node is
// about 140 bytes, so a thread holds at most about 2 MB between parses.
inline constexpr std::size_t kMaxPooledNodes = 16384;
// Lists of children kept for reuse by each thread, with their storage: every expression level
// gets a one-child list that it hands up when it folds away, so without reuse each leaf cost
// about ten allocations and frees of a list. Only lists of at most kMaxPooledChildCapacity
// pointers are kept (a file's list of declarations is freed), so a thread holds at most
// 16384 x 64 x 8 bytes, 8 MB, between parses, and usually far less.
inline constexpr std::size_t kMaxPooledChildLists = 16384;
inline constexpr std::size_t kMaxPooledChildCapacity = 64;

struct Node : tao::pegtl::parse_tree::basic_node<Node> {
  Node();   // starts with a kept, empty list of children when there is one
  ~Node();  // destroys its children, then keeps their emptied list for the next node
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
  static void* operator new(std::size_t size);
  static void operator delete(void* p, std::size_t size) noexcept;
};

}  // namespace keli::ast::parse_detail
