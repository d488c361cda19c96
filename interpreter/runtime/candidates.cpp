// Moves a person may have meant: every move of the phase's rules that reads as typed, legal or
// not, and the test that makes one illegal (for `keli play` to say why it cannot be played).
#include <cstring>

#include "runtime/game.hpp"

namespace keli::runtime {

int Game::why_not(const State& s, const Move& m) {
  const compile::Rule& r = p_->rules.at(m.rule);
  see(s);
  OnPosition on(*this, s);
  m_.reset_work();
  // Each domain, filter and guard starts from the position itself, as in Game::legal.
  auto restore = [&] { rewind(); };
  for (int i = 0; i < m.nargs; ++i) {
    const compile::RuleParam& rp = r.params[i];
    restore();
    Machine::Domain d = m_.open_domain(rp.written_domain);
    int at = -1;
    for (int k = 0; k < d.size && at < 0; ++k)
      if (m_.domain_value(d, k) == m.args[i]) at = k;
    if (at < 0) return rp.written_domain;
    m_.set_local(rp.slot, m.args[i]);
    restore();
    if (rp.written_filter >= 0 && !m_.eval(rp.written_filter)) return rp.written_filter;
    if (rp.distinct >= 0 && listed_earlier(r, i, d, at)) return rp.distinct;
  }
  restore();
  if (r.guard >= 0 && !m_.eval(r.guard)) return r.guard;
  return -1;
}

Game::FailedPart Game::failed_part(const State& s, const Move& m, int node) {
  const compile::Rule& r = p_->rules.at(m.rule);
  see(s);
  OnPosition on(*this, s);
  m_.reset_work();
  for (int i = 0; i < m.nargs; ++i) m_.set_local(r.params[i].slot, m.args[i]);
  FailedPart out;
  if (node < 0) return out;
  while (p_->code[node].op == compile::Op::And) {
    rewind();
    const int left = p_->code[node].k[0];
    node = m_.eval(left) ? p_->code[node].k[1] : left;
  }
  out.node = node;
  switch (p_->code[node].op) {
    case compile::Op::Eq:
    case compile::Op::Ne:
    case compile::Op::Lt:
    case compile::Op::Le:
    case compile::Op::Gt:
    case compile::Op::Ge:
      for (int side : {p_->code[node].k[0], p_->code[node].k[1]}) {
        rewind();
        out.sides.push_back(m_.eval(side));
      }
      break;
    case compile::Op::Call:  // a definition's answer: the values it was asked about
      for (int i = 0; i < p_->code[node].c; ++i) {
        rewind();
        out.sides.push_back(m_.eval(p_->args[static_cast<size_t>(p_->code[node].b + i)]));
      }
      break;
    default: break;
  }
  return out;
}

// `distinct by`: whether a value of parameter i before position `at` of its domain passes the
// filter with the key of the value at `at` (bound in its slot), and so stands for it.
bool Game::listed_earlier(const compile::Rule& r, int i, const Machine::Domain& d, int at) {
  const compile::RuleParam& rp = r.params[i];
  const int64_t mine = m_.domain_value(d, at);
  rewind();
  const int64_t key = m_.eval(rp.distinct);
  bool earlier = false;
  for (int k = 0; k < at && !earlier; ++k) {
    m_.set_local(rp.slot, m_.domain_value(d, k));
    rewind();
    if (rp.written_filter >= 0 && !m_.eval(rp.written_filter)) continue;
    rewind();
    earlier = m_.eval(rp.distinct) == key;
  }
  m_.set_local(rp.slot, mine);
  return earlier;
}

std::vector<Move> Game::read_as(const State& s, const std::string& text,
                                bool (*same)(const std::string&, const std::string&), int64_t tries) {
  return candidates(
      s, [&](const Move& m) { return same(notation(s, m), text) || same(call_text(m), text); }, tries);
}

std::vector<Move> Game::candidates(const State& s, const std::function<bool(const Move&)>& keep, int64_t tries) {
  std::vector<Move> out;
  if (over(s) || chance(s)) return out;
  see(s);
  const compile::PhaseInfo& ph = p_->phases[s[compile::kPhase]];
  std::vector<int> rules = ph.rules;
  if (ph.otherwise >= 0) rules.push_back(ph.otherwise);
  for (int rid : rules) {
    const compile::Rule& r = p_->rules[rid];
    const int np = static_cast<int>(r.params.size());
    // The domains ignoring filters and guards, each evaluated with the earlier values bound.
    Move mv;
    mv.rule = static_cast<int16_t>(rid);
    mv.nargs = static_cast<uint8_t>(np);
    std::vector<std::vector<int64_t>> values(np);
    int k = 0;
    std::vector<size_t> at(np, 0);
    auto open = [&](int i) {
      std::memcpy(scratch_.data(), s.data(), s.size() * sizeof(int32_t));
      m_.bind(scratch_.data());
      m_.reset_work();
      for (int j = 0; j < i; ++j) m_.set_local(r.params[j].slot, mv.args[j]);
      Machine::Domain d = m_.open_domain(r.params[i].written_domain);
      values[i].clear();
      for (int x = 0; x < d.size; ++x) values[i].push_back(m_.domain_value(d, x));
    };
    try {
      if (np == 0) {
        if (keep(mv)) out.push_back(mv);
        continue;
      }
      open(0);
      while (k >= 0 && tries > 0) {
        if (at[k] >= values[k].size()) {
          if (--k >= 0) ++at[k];
          continue;
        }
        mv.args[k] = static_cast<int32_t>(values[k][at[k]]);
        if (k + 1 < np) {
          open(++k);
          at[k] = 0;
          continue;
        }
        --tries;
        try {
          if (keep(mv)) out.push_back(mv);
        } catch (const diag::Error&) {  // a text that cannot be shown for these values
        }
        ++at[k];
      }
    } catch (const diag::Error&) {  // a domain that cannot be listed here
    }
  }
  return out;
}

}  // namespace keli::runtime
