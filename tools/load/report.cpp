// keli_load's report (load.hpp, Report): the figures of a run as text and as JSON: throughput,
// latency percentiles from a move sent to its echo, the server's memory and CPU sampled every 10 s
// (to show whether memory stays flat), errors by code, the database check; and what failed.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "load.hpp"

namespace keli_load {

namespace {

constexpr double kTargetP99Ms = 50;     // the target on this kind of machine (issue 36)
constexpr double kFlatGrowth = 0.10;    // memory is flat when it grows less than this part of its start
constexpr double kFlatGrowthKb = 8192;  // ... or less than this, whichever is more (allocator noise)

struct Percentiles {
  size_t n = 0;
  double p50 = 0, p90 = 0, p99 = 0, max = 0;
};

Percentiles percentiles(std::vector<float> ms) {
  Percentiles p;
  p.n = ms.size();
  if (ms.empty()) return p;
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return static_cast<double>(ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))]);
  };
  p.p50 = at(0.50), p.p90 = at(0.90), p.p99 = at(0.99), p.max = ms.back();
  return p;
}

// The latencies of the moves sent in [from, to) seconds of the run.
// The latencies (to the echo, or with `answer` to the answer) of the moves sent in [from, to)
// seconds of the run.
std::vector<float> between(const std::vector<Latency>& all, double from, double to, bool answer = false) {
  std::vector<float> out;
  for (const auto& l : all)
    if (l.at_s >= from && l.at_s < to) out.push_back(answer ? l.answer_ms : l.ms);
  return out;
}

double mb(int64_t kb) { return static_cast<double>(kb) / 1024.0; }

struct Growth {
  int64_t kb = 0;
  bool flat = true;
};

Growth memory_growth(const Report& r) {
  Growth g;
  if (r.samples.size() < 2) return g;
  const int64_t start = r.samples.front().mem.rss_kb, end = r.samples.back().mem.rss_kb;
  g.kb = end - start;
  g.flat = static_cast<double>(g.kb) <= std::max(kFlatGrowth * static_cast<double>(start), kFlatGrowthKb);
  return g;
}

nlohmann::json sample_json(const Report& r, size_t i) {
  const Sample& s = r.samples[i];
  nlohmann::json j = {{"t_s", s.t_s}, {"rss_kb", s.mem.rss_kb}, {"hwm_kb", s.mem.hwm_kb}, {"server_cpu_s", s.cpu_s}};
  if (i == 0) return j;
  const Sample& prev = r.samples[i - 1];
  const double span = s.t_s - prev.t_s;
  const Percentiles p = percentiles(between(r.tally.latencies, prev.t_s, s.t_s));
  j["moves_per_s"] = span > 0 ? static_cast<double>(s.moves - prev.moves) / span : 0;
  j["p50_ms"] = p.p50, j["p99_ms"] = p.p99;
  j["server_cores"] = span > 0 ? (s.cpu_s - prev.cpu_s) / span : 0;
  return j;
}

void print_samples(const Report& r) {
  std::printf("  %6s %9s %8s %8s %8s %8s %12s\n", "t (s)", "moves/s", "p50 ms", "p99 ms", "RSS MB", "HWM MB",
              "server CPU");
  for (size_t i = 0; i < r.samples.size(); ++i) {
    const nlohmann::json j = sample_json(r, i);
    if (i == 0) {
      std::printf("  %6.0f %9s %8s %8s %8.1f %8.1f %12s\n", j["t_s"].get<double>(), "", "", "",
                  mb(j["rss_kb"].get<int64_t>()), mb(j["hwm_kb"].get<int64_t>()), "");
      continue;
    }
    std::printf("  %6.0f %9.1f %8.1f %8.1f %8.1f %8.1f %7.2f cores\n", j["t_s"].get<double>(),
                j["moves_per_s"].get<double>(), j["p50_ms"].get<double>(), j["p99_ms"].get<double>(),
                mb(j["rss_kb"].get<int64_t>()), mb(j["hwm_kb"].get<int64_t>()), j["server_cores"].get<double>());
  }
}

std::string errors_text(const std::map<std::string, int64_t>& errors) {
  std::string out;
  for (const auto& [code, n] : errors) out += (out.empty() ? "" : ", ") + code + " " + std::to_string(n);
  return out.empty() ? "none" : out;
}

}  // namespace

std::vector<std::string> run_failures(const Report& r) {
  std::vector<std::string> f;
  const Tally& t = r.tally;
  if (!t.errors.empty()) f.push_back("errors from the server or the clients: " + errors_text(t.errors));
  if (t.unanswered > 0) f.push_back(std::to_string(t.unanswered) + " message(s) never answered (a hang)");
  if (t.stalled > 0) f.push_back(std::to_string(t.stalled) + " person(s) heard nothing in the last 10 s of the run");
  if (t.moves_accepted == 0) f.push_back("no move was played");
  if (r.server_status != 0) f.push_back("keli serve stopped with status " + std::to_string(r.server_status));
  int64_t sent = 0, settled = 0;
  for (const auto& log : t.rooms) sent += static_cast<int64_t>(log.sent.size()), settled += log.refused;
  settled += t.moves_accepted;
  if (r.options.targets) {
    const Percentiles p = percentiles(between(t.latencies, 0, 1e9));
    if (p.p99 >= kTargetP99Ms) f.push_back("target missed: p99 " + std::to_string(p.p99) + " ms");
    if (!memory_growth(r).flat) f.push_back("target missed: the server's memory grew");
  }
  if (sent != settled + t.unanswered)
    f.push_back("moves sent " + std::to_string(sent) + " are not those accepted or refused " + std::to_string(settled));
  return f;
}

void print_report(const Report& r, bool ok) {
  const Options& o = r.options;
  const Tally& t = r.tally;
  const Percentiles p = percentiles(between(t.latencies, 0, 1e9));
  const Growth g = memory_growth(r);
  std::printf(
      "keli_load: %d clients (%d persons, %d spectators) in %d rooms of %s against %s; %.0f s of play "
      "(setup %.1f s)\n",
      o.clients, o.rooms, o.clients - o.rooms, o.rooms, o.game.c_str(), o.opponent.c_str(), r.run_s, r.setup_s);
  std::printf(
      "moves: %lld sent, %lld accepted: %.1f a second; steps in the database (all seats): %lld, %.1f a "
      "second\n",
      static_cast<long long>(t.moves_sent), static_cast<long long>(t.moves_accepted),
      static_cast<double>(t.moves_accepted) / r.run_s, static_cast<long long>(r.db.steps),
      static_cast<double>(r.db.steps) / r.run_s);
  std::printf("games finished: %lld; views received: %lld (%.0f a second, %.1f MB/s)\n",
              static_cast<long long>(t.games_finished), static_cast<long long>(t.views),
              static_cast<double>(t.views) / r.run_s, static_cast<double>(t.bytes) / 1048576.0 / r.run_s);
  std::printf(
      "latency, a move sent to its echo (ms): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f  (%zu moves; target "
      "p99 < %.0f: %s)\n",
      p.p50, p.p90, p.p99, p.max, p.n, kTargetP99Ms, p.p99 < kTargetP99Ms ? "met" : "MISSED");
  const Percentiles a = percentiles(between(t.latencies, 0, 1e9, true));
  std::printf("latency, a move sent to its answer \"moved\" (ms): p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", a.p50,
              a.p90, a.p99, a.max);
  if (!r.samples.empty())
    std::printf("server memory: start RSS %.1f MB (HWM %.1f), end RSS %.1f MB (HWM %.1f): %+.1f MB, %s\n",
                mb(r.samples.front().mem.rss_kb), mb(r.samples.front().mem.hwm_kb), mb(r.samples.back().mem.rss_kb),
                mb(r.samples.back().mem.hwm_kb), mb(g.kb), g.flat ? "flat" : "GROWING");
  print_samples(r);
  if (r.samples.size() >= 2)
    std::printf("CPU: the server %.1f s (%.2f cores), the clients %.1f s\n",
                r.samples.back().cpu_s - r.samples.front().cpu_s,
                (r.samples.back().cpu_s - r.samples.front().cpu_s) / r.run_s, r.client_cpu_s);
  std::printf("errors: %s\n", errors_text(t.errors).c_str());
  for (const auto& e : t.first_errors) std::printf("  %s\n", e.c_str());
  if (!r.db.checked)
    std::printf("database: not checked (the run ended before)\n");
  else
    std::printf("database: %lld rooms (%lld finished), %lld steps, %lld of them the persons'; %s\n",
                static_cast<long long>(r.db.rooms), static_cast<long long>(r.db.finished),
                static_cast<long long>(r.db.steps), static_cast<long long>(r.db.person_steps),
                r.db.failures.empty() ? "every accepted move stored once, in order, none other" : "FAILURES:");
  for (size_t i = 0; i < r.db.failures.size() && i < 20; ++i) std::printf("  %s\n", r.db.failures[i].c_str());
  for (const auto& f : r.failures) std::printf("failure: %s\n", f.c_str());
  std::printf("keli_load: %s\n", ok ? "passed" : "FAILED");
  std::fflush(stdout);
}

void write_json(const Report& r, bool ok, const std::string& path) {
  const Options& o = r.options;
  const Tally& t = r.tally;
  const Percentiles p = percentiles(between(t.latencies, 0, 1e9));
  const Percentiles a = percentiles(between(t.latencies, 0, 1e9, true));
  const Growth g = memory_growth(r);
  nlohmann::json samples = nlohmann::json::array();
  for (size_t i = 0; i < r.samples.size(); ++i) samples.push_back(sample_json(r, i));
  nlohmann::json j = {
      {"ok", ok},
      {"clients", o.clients},
      {"rooms", o.rooms},
      {"game", o.game},
      {"opponent", o.opponent},
      {"seconds", r.run_s},
      {"setup_s", r.setup_s},
      {"games_finished", t.games_finished},
      {"moves_sent", t.moves_sent},
      {"moves_accepted", t.moves_accepted},
      {"moves_per_s", static_cast<double>(t.moves_accepted) / r.run_s},
      {"db",
       {{"rooms", r.db.rooms},
        {"finished", r.db.finished},
        {"steps", r.db.steps},
        {"person_steps", r.db.person_steps},
        {"steps_per_s", static_cast<double>(r.db.steps) / r.run_s},
        {"failures", r.db.failures}}},
      {"latency_ms", {{"n", p.n}, {"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}, {"max", p.max}}},
      {"answer_latency_ms", {{"p50", a.p50}, {"p90", a.p90}, {"p99", a.p99}, {"max", a.max}}},
      {"views", t.views},
      {"bytes", t.bytes},
      {"errors", t.errors},
      {"first_errors", t.first_errors},
      {"memory", {{"growth_kb", g.kb}, {"flat", g.flat}}},
      {"targets", {{"p99_under_ms", kTargetP99Ms}, {"p99_met", p.p99 < kTargetP99Ms}, {"memory_flat", g.flat}}},
      {"samples", samples},
      {"client_cpu_s", r.client_cpu_s},
      {"server_status", r.server_status},
      {"failures", r.failures},
  };
  std::ofstream(path) << j.dump(2) << "\n";
}

}  // namespace keli_load
