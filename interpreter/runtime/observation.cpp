// The observation tensor of runtime/observation.hpp: the board's rotation for each seat found from
// the game's per-seat tables, the pieces ordered by owner from each seat, and the tensor written
// part by part from a state's visible slots.
#include "runtime/observation.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace keli::runtime {

namespace {

// The per-seat site lists of a game: for each region or track declared `per player` and each
// `site per player` constant table, one list of sites a seat, all of one length; the k-th sites
// of the lists play the same part for their seats.
std::vector<std::vector<std::vector<int>>> per_seat_sites(const compile::Program& p) {
  std::vector<std::vector<std::vector<int>>> groups;
  auto by_seat = [&](const compile::VarInfo& t) {
    return t.dims.size() == 1 && t.dim_kinds[0] == lang::DimKind::Player && t.dims[0] == p.num_players;
  };
  for (const compile::VarInfo& t : p.region_tables) {
    if (!by_seat(t)) continue;
    std::vector<std::vector<int>> lists;
    for (int q = 0; q < p.num_players; ++q) {
      const auto& sites = p.regions[static_cast<size_t>(t.base + q)];
      lists.emplace_back(sites.begin(), sites.end());
      if (lists.back().size() != lists.front().size()) lists.clear();
      if (lists.empty()) break;
    }
    if (!lists.empty()) groups.push_back(std::move(lists));
  }
  for (const compile::VarInfo& t : p.const_tables) {
    if (!by_seat(t) || t.kind != lang::ValueKind::Site) continue;
    // Only a table giving each seat a site of its own: one left unset (every seat the same
    // site, or none) says nothing of the board's symmetry.
    std::vector<std::vector<int>> lists;
    std::set<int> distinct;
    for (int q = 0; q < p.num_players; ++q) {
      auto site = static_cast<int>(p.consts[static_cast<size_t>(t.base + q)]);
      if (site < 0 || site >= p.num_sites || !distinct.insert(site).second) break;
      lists.push_back({site});
    }
    if (static_cast<int>(lists.size()) == p.num_players) groups.push_back(std::move(lists));
  }
  return groups;
}

// The inverse of a permutation.
std::vector<int> inverse(const std::vector<int>& perm) {
  std::vector<int> inv(perm.size(), -1);
  for (size_t i = 0; i < perm.size(); ++i) inv[static_cast<size_t>(perm[i])] = static_cast<int>(i);
  return inv;
}

}  // namespace

Observer::Observer(const compile::Program& p, std::vector<int> piece_owner) : p_(p) { build(piece_owner); }

Observer::Observer(Game& g) : p_(g.program()) { build(g.owners_at_start()); }

void Observer::build(const std::vector<int>& piece_owner) {
  find_site_rotation();
  order_pieces(piece_owner);
  lay_out();
}

// For each seat q, the map that sends each site of seat 0's lists to the same place in seat q's
// lists (sites in no list stay), kept only when every list agrees and it is a permutation: a board
// without such a symmetry keeps its sites in order for every seat.
void Observer::find_site_rotation() {
  const int n = p_.num_players, sites = p_.num_sites;
  auto groups = per_seat_sites(p_);
  if (n < 2 || sites == 0 || groups.empty()) return;
  std::vector<std::vector<int>> map(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(sites), -1));
  for (int seat = 0; seat < n; ++seat) {
    auto& m = map[static_cast<size_t>(seat)];
    for (const auto& lists : groups)
      for (int q = 0; q < n; ++q)
        for (size_t k = 0; k < lists[0].size(); ++k) {
          int from = lists[static_cast<size_t>(q)][k], to = lists[static_cast<size_t>((q + seat) % n)][k];
          int& slot = m[static_cast<size_t>(from)];
          if (slot >= 0 && slot != to) return;  // the lists disagree: no rotation
          slot = to;
        }
    for (int s = 0; s < sites; ++s)
      if (m[static_cast<size_t>(s)] < 0) m[static_cast<size_t>(s)] = s;
    std::vector<int> sorted = m;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return;  // not one to one
  }
  bool turns = false;
  for (const auto& m : map)
    for (int s = 0; s < sites; ++s) turns = turns || m[static_cast<size_t>(s)] != s;
  if (!turns) return;  // every list the same for every seat: nothing to turn
  site_map_ = std::move(map);
  for (const auto& m : site_map_) site_seen_.push_back(inverse(m));
}

// Each seat sees its own pieces first, then the next seat's, and so on, each seat's in their
// declared order; when some piece has no owner, pieces keep their order.
void Observer::order_pieces(const std::vector<int>& owner) {
  const int n = p_.num_players;
  if (p_.num_pieces == 0 || static_cast<int>(owner.size()) != p_.num_pieces) return;
  if (std::any_of(owner.begin(), owner.end(), [&](int o) { return o < 0 || o >= n; })) return;
  for (int seat = 0; seat < n; ++seat) {
    std::vector<int> order(static_cast<size_t>(p_.num_pieces));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return (owner[static_cast<size_t>(a)] - seat + n) % n < (owner[static_cast<size_t>(b)] - seat + n) % n;
    });
    piece_map_.push_back(order);
    piece_seen_.push_back(inverse(order));
  }
}

void Observer::lay_out() {
  const int n = p_.num_players;
  auto add = [&](std::string name, std::vector<int> shape, std::string what) {
    int count = 1;
    for (int d : shape) count *= d;
    parts_.push_back({std::move(name), size_, std::move(shape), std::move(what)});
    size_ += count;
  };
  add("to_move", {n}, "1 at the seat whose turn it is, counted from the observer (0); all 0 at the end");
  if (p_.phases.size() > 1)
    add("phase", {static_cast<int>(p_.phases.size())}, "1 at the phase in play, in declared order");
  add("places", {n}, "each seat's place (1 first, 0 unplaced), counted from the observer");
  for (const compile::VarInfo& v : p_.vars) {
    std::vector<int> shape(v.dims.begin(), v.dims.end());
    std::string what = v.kind == lang::ValueKind::Player  ? "one-hot over the seats, counted from the observer"
                       : v.kind == lang::ValueKind::Site  ? "a site as the observer sees the board, -1 for none"
                       : v.kind == lang::ValueKind::Piece ? "a piece as the observer orders them, -1 for none"
                       : v.kind == lang::ValueKind::Bool  ? "0 or 1"
                                                          : "the number";
    if (v.kind == lang::ValueKind::Player) shape.push_back(n);
    // A variable named as a fixed part keeps a name of its own (parts are looked up by name).
    bool taken = std::any_of(parts_.begin(), parts_.end(), [&](const ObservationPart& x) { return x.name == v.name; });
    add(taken ? v.name + "_var" : v.name, shape, what);
  }
}

// A dimension is turned only when it has as many elements as its kind (every site, seat, piece).
static bool whole(const compile::Program& p, lang::DimKind kind, int size) {
  return kind != lang::DimKind::Range && size == p.count_of(kind);
}

int Observer::seen_at(lang::DimKind kind, int index, int seat) const {
  if (index < 0) return index;
  // The checker lets a number stand for a site or a piece, so a slot may hold one that names
  // none: shown as none (-1), never looked up.
  if (kind != lang::DimKind::Range && index >= p_.count_of(kind)) return -1;
  switch (kind) {
    case lang::DimKind::Site:
      return site_seen_.empty() ? index : site_seen_[static_cast<size_t>(seat)][static_cast<size_t>(index)];
    case lang::DimKind::Player: return (index - seat + p_.num_players) % p_.num_players;
    case lang::DimKind::Piece:
      return piece_seen_.empty() ? index : piece_seen_[static_cast<size_t>(seat)][static_cast<size_t>(index)];
    case lang::DimKind::Range: break;
  }
  return index;
}

int Observer::shown_from(lang::DimKind kind, int place, int seat) const {
  switch (kind) {
    case lang::DimKind::Site:
      return site_map_.empty() ? place : site_map_[static_cast<size_t>(seat)][static_cast<size_t>(place)];
    case lang::DimKind::Player: return (place + seat) % p_.num_players;
    case lang::DimKind::Piece:
      return piece_map_.empty() ? place : piece_map_[static_cast<size_t>(seat)][static_cast<size_t>(place)];
    case lang::DimKind::Range: break;
  }
  return place;
}

void Observer::write_var(const compile::VarInfo& v, const int32_t* slots, int seat, float* out) const {
  const int n = p_.num_players, dims = static_cast<int>(v.dims.size()), count = v.size();
  std::vector<int> at(static_cast<size_t>(dims), 0);  // the element shown, index by index
  for (int o = 0; o < count; ++o) {
    int from = 0;
    for (int d = 0; d < dims; ++d) {
      auto kind = v.dim_kinds[static_cast<size_t>(d)];
      int i = at[static_cast<size_t>(d)];
      if (whole(p_, kind, v.dims[static_cast<size_t>(d)])) i = shown_from(kind, i, seat);
      from = from * v.dims[static_cast<size_t>(d)] + i;
    }
    int32_t x = slots[v.base + from];
    switch (v.kind) {
      case lang::ValueKind::Player:
        if (x >= 0 && x < n) out[o * n + seen_at(lang::DimKind::Player, x, seat)] = 1.0F;
        break;
      case lang::ValueKind::Site: out[o] = static_cast<float>(seen_at(lang::DimKind::Site, x, seat)); break;
      case lang::ValueKind::Piece: out[o] = static_cast<float>(seen_at(lang::DimKind::Piece, x, seat)); break;
      default: out[o] = static_cast<float>(x);
    }
    for (int d = dims - 1; d >= 0 && ++at[static_cast<size_t>(d)] == v.dims[static_cast<size_t>(d)]; --d)
      at[static_cast<size_t>(d)] = 0;
  }
}

void Observer::write(const int32_t* slots, int seat, float* out) const {
  const int n = p_.num_players;
  std::fill(out, out + size_, 0.0F);
  size_t part = 0;
  bool over = slots[compile::kOver] != compile::kPlaying;
  const int32_t mover = slots[compile::kMover], phase = slots[compile::kPhase];
  if (!over && mover >= 0 && mover < n) out[parts_[part].offset + seen_at(lang::DimKind::Player, mover, seat)] = 1.0F;
  ++part;
  if (p_.phases.size() > 1) {
    if (phase >= 0 && phase < static_cast<int>(p_.phases.size())) out[parts_[part].offset + phase] = 1.0F;
    ++part;
  }
  for (int q = 0; q < n; ++q)
    out[parts_[part].offset + q] =
        static_cast<float>(slots[compile::kPlaces + shown_from(lang::DimKind::Player, q, seat)]);
  ++part;
  for (const compile::VarInfo& v : p_.vars) write_var(v, slots, seat, out + parts_[part++].offset);
}

}  // namespace keli::runtime
