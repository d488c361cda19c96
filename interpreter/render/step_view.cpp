// The last steps as a view tells them (step_view.hpp): the pieces' places and their ways along
// the tracks, the dice of the last throw and which are used. Nothing here knows a game: tracks,
// owners and the dice in hand are the game's own `track` and `display` declarations.
#include "render/step_view.hpp"

#include <algorithm>
#include <map>

#include "runtime/machine.hpp"

namespace keli::render {
using compile::Program;

int first_track(const check::Checked& ck) { return ck.tracks.empty() ? -1 : static_cast<int>(ck.regions.size()); }

std::vector<PiecePlace> piece_places(const Program& p, const runtime::State& s) {
  std::vector<PiecePlace> out;
  if (p.piece_site < 0 || p.piece_owner < 0) return out;
  runtime::State copy = s;
  runtime::Machine m(p);
  m.bind(copy.data());
  out.resize(static_cast<size_t>(p.num_pieces));
  for (int pc = 0; pc < p.num_pieces; ++pc) {
    int64_t arg = pc;
    int64_t site = m.call(p.piece_site, &arg, 1), owner = m.call(p.piece_owner, &arg, 1);
    if (site < 0 || site >= p.num_sites || owner < 0 || owner >= p.num_players) continue;
    out[static_cast<size_t>(pc)] = {static_cast<int>(site), static_cast<int>(owner)};
  }
  return out;
}

namespace {

// The way from `from` to `to` along the tracks: the owner's instance holding `from` before `to`,
// else the shortest such stretch of any instance; empty when no instance holds them in that order.
std::vector<int> along_tracks(const Program& p, int first_track, int from, int to, int owner) {
  const std::vector<int32_t>* best = nullptr;
  size_t best_from = 0, best_to = 0;
  bool best_owned = false;
  for (size_t ti = static_cast<size_t>(first_track); first_track >= 0 && ti < p.declared_region_tables(); ++ti) {
    const auto& t = p.region_tables[ti];
    for (int k = 0; k < t.size(); ++k) {
      const std::vector<int32_t>& sites = p.regions[static_cast<size_t>(t.base + k)];
      // The instance's index is the owner's seat: path[p] per player (or per 0..n from 0).
      const bool owned = t.dims.size() == 1 && (t.lows.empty() ? 0 : t.lows[0]) + k == owner;
      size_t last_from = sites.size();  // the latest `from` so far: the shortest stretch to a `to`
      for (size_t j = 0; j < sites.size(); ++j) {
        if (sites[j] == from) last_from = j;
        if (sites[j] != to || last_from == sites.size()) continue;
        const bool better =
            !best || (owned && !best_owned) || (owned == best_owned && j - last_from < best_to - best_from);
        if (better) best = &sites, best_from = last_from, best_to = j, best_owned = owned;
        break;
      }
    }
  }
  if (!best) return {};
  return std::vector<int>(best->begin() + static_cast<std::ptrdiff_t>(best_from),
                          best->begin() + static_cast<std::ptrdiff_t>(best_to) + 1);
}

}  // namespace

std::vector<Slide> slides(const Program& p, int first_track, const runtime::State& before,
                          const runtime::State& after) {
  std::vector<Slide> out;
  const std::vector<PiecePlace> was = piece_places(p, before), now = piece_places(p, after);
  // The seat that decided the step; -1 for a throw (whose body may move pieces too).
  const bool thrown = before[compile::kOver] == compile::kPlaying && p.phases[before[compile::kPhase]].dice >= 0;
  const int mover = before[compile::kOver] != compile::kPlaying || thrown ? -1 : before[compile::kMover];
  for (size_t pc = 0; pc < was.size() && pc < now.size(); ++pc) {
    const int from = was[pc].site, to = now[pc].site;
    if (from == to) continue;
    Slide s{static_cast<int>(pc), {}};
    if (from < 0 || to < 0) {
      s.path = {from < 0 ? to : from};
    } else {
      const int owner = now[pc].owner;
      if (mover < 0 || owner == mover) s.path = along_tracks(p, first_track, from, to, owner);
      if (s.path.empty()) s.path = {from, to};
    }
    out.push_back(std::move(s));
  }
  return out;
}

ShownDice shown_dice(const Program& p, const std::vector<int32_t>& thrown, const runtime::State& after_throw,
                     const runtime::State& now, bool moved) {
  ShownDice out;
  if (p.display_hand >= 0) {
    const compile::VarInfo& hand = p.vars[static_cast<size_t>(p.display_hand)];
    for (int i = 0; i < hand.size(); ++i)
      if (int32_t x = after_throw[static_cast<size_t>(hand.base + i)]; x != 0) out.values.push_back(x);
    if (!out.values.empty()) {
      std::map<int32_t, int> left;  // the values still in hand now, and how many of each
      for (int i = 0; i < hand.size(); ++i)
        if (int32_t x = now[static_cast<size_t>(hand.base + i)]; x != 0) ++left[x];
      std::map<int32_t, int> spent;  // of each value: how many of the throw's are no longer in hand
      for (int32_t x : out.values) ++spent[x];
      for (auto& [x, n] : spent) n -= std::min(n, left[x]);
      for (int32_t x : out.values) out.used.push_back(spent[x]-- > 0);
      return out;
    }
  }
  // No hand, or a throw that left nothing in hand (it gave nothing to play): the thrown values.
  out.values = thrown;
  out.used.assign(thrown.size(), moved || p.display_hand >= 0);
  return out;
}

void write_dice(nlohmann::json& view, const ShownDice& dice) {
  view["dice"] = dice.values;
  view["dice_used"] = dice.used;
}

void write_slides(nlohmann::json& view, const std::vector<Slide>& slides) {
  if (slides.empty()) return;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : slides) list.push_back({{"piece", s.piece}, {"path", s.path}});
  view["slides"] = std::move(list);
}

}  // namespace keli::render
