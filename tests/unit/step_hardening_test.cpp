// The step protocol under hostile and heavy sessions (issue 42): every type or range error is an
// error reply and the session goes on; what is echoed is bounded; undo keeps what a step changed,
// clones share their undo history, and a session holds at most kMaxStepMemory bytes.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "lang/limits.hpp"
#include "support.hpp"
#include "util/json_read.hpp"

namespace keli::test {
namespace {
using util::Json;

std::string lines(const std::string& line, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += line + "\n";
  return out;
}

std::string error_of(const Json& reply) { return reply.value("error", std::string()); }

}  // namespace

TEST_CASE("keli step: a field of the wrong type or range is an error reply, and the session goes on",
          "[step][cli][hardening]") {
  const std::string script =
      "{\"cmd\": \"state\", \"board\": 5}\n"
      "{\"cmd\": \"state\", \"board\": \"yes\"}\n"
      "{\"cmd\": \"restore\", \"handle\": 18446744073709551615}\n"
      "{\"cmd\": \"drop\", \"handle\": -1}\n"
      "{\"cmd\": \"throw\", \"outcome\": 18446744073709551615}\n"
      "{\"cmd\": \"apply\", \"move\": 18446744073709551615}\n"
      "{\"cmd\": \"apply\", \"move\": 1.5}\n"
      "{\"cmd\": \"sample\", \"seed\": -3}\n"
      "{\"cmd\": \"throw\", \"values\": [1, 99999999999]}\n"
      "{\"cmd\": \"state\", \"board\": true}\n";
  auto r = keli_input({"step", "games/kalah.keli"}, script);
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 10);
  for (size_t i = 0; i + 1 < v.size(); ++i) {
    INFO(i);
    CHECK(v[i]["ok"] == false);
    CHECK(v[i]["code"] == "E705");
  }
  CHECK(error_of(v[0]) == "\"board\" must be true or false, not 5");
  CHECK(error_of(v[2]).find("no state has the handle 18446744073709551615") != std::string::npos);
  CHECK(error_of(v[3]).find("\"handle\" must be a whole number from 0, not -1") != std::string::npos);
  CHECK(error_of(v[5]).find("\"move\" must be an action id") != std::string::npos);
  CHECK(v[9]["ok"] == true);  // the session went on
  CHECK(v[9]["board"].is_string());
}

TEST_CASE("keli step: a tag nested deeper than kMaxJsonDepth is refused, not echoed", "[step][cli][hardening]") {
  const int deep = 70000;
  const std::string tag = std::string(deep, '[') + std::string(deep, ']');
  const std::string ok_tag = std::string(lang::kMaxJsonDepth - 1, '[') + std::string(lang::kMaxJsonDepth - 1, ']');
  const std::string script = "{\"cmd\": \"info\", \"tag\": " + tag + "}\n{\"cmd\": \"info\", \"tag\": " + ok_tag +
                             "}\n{\"cmd\": \"over\", \"tag\": {\"a\": [1, {\"b\": \"c\"}]}}\n";
  auto r = keli_input({"step", "games/kalah.keli"}, script);
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 3);
  CHECK(v[0]["ok"] == false);
  CHECK(error_of(v[0]).find(fmt::format("nest more than {} deep (kMaxJsonDepth)", lang::kMaxJsonDepth)) !=
        std::string::npos);
  CHECK(!v[0].contains("tag"));
  CHECK(v[1]["ok"] == true);
  CHECK(v[1]["tag"].dump() == ok_tag);
  CHECK(v[2]["tag"] == Json::parse("{\"a\": [1, {\"b\": \"c\"}]}"));
}

TEST_CASE("keli step: clones share the undo history, so a long game cloned often stays small",
          "[step][cli][hardening]") {
  // 20,000 steps, then 2,000 clones: every clone copied the whole history before (3 GB).
  const std::string script = lines("{\"cmd\": \"apply\", \"move\": 0}", 20000) + lines("{\"cmd\": \"clone\"}", 2000) +
                             "{\"cmd\": \"memory\"}\n" + lines("{\"cmd\": \"undo\"}", 20000) +
                             "{\"cmd\": \"undo\"}\n{\"cmd\": \"restore\", \"handle\": 2000}\n{\"cmd\": \"state\"}\n";
  auto r = keli_input({"step", "tests/step/pass.keli"}, script);
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 20000 + 2000 + 1 + 20000 + 3);
  for (size_t i = 0; i < 22000; ++i)
    if (v[i]["ok"] != true) FAIL("reply " << i << ": " << v[i].dump());
  const Json& mem = v[22000];
  CHECK(mem["handles"] == 2000);
  CHECK(mem["undo"] == 20000);
  CHECK(mem["bytes"].get<int64_t>() < 8'000'000);  // about 60 bytes a step and 200 a clone
  CHECK(v[22000 + 20000]["ply"] == 0);             // every step taken back
  CHECK(error_of(v[22000 + 20001]).find("nothing to undo") != std::string::npos);
  CHECK(v[22000 + 20002]["ply"] == 20000);  // the last clone kept the end of the game
  CHECK(v[22000 + 20003]["state"]["score"] == Json::array({10000, 10000}));
}

TEST_CASE("keli step: undo keeps what a step changed, not the whole state", "[step][cli][hardening]") {
  // A 64 MB state: each apply kept a whole copy before (58 applies were 3.9 GB; 64 here would be 4 GB).
  const std::string script = lines("{\"cmd\": \"apply\", \"move\": 0}", 64) + "{\"cmd\": \"memory\"}\n" +
                             lines("{\"cmd\": \"undo\"}", 63) + "{\"cmd\": \"result\"}\n";
  auto r = keli_input({"step", "tests/step/big_state.keli"}, script);
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == 64 + 1 + 63 + 1);
  CHECK(v[63]["ply"] == 64);
  CHECK(v[64]["bytes"].get<int64_t>() < 100'000);
  CHECK(v[127]["ply"] == 1);
}

TEST_CASE("keli step: a session holds at most kMaxStepMemory bytes, and drop and forget give it back",
          "[step][cli][hardening]") {
  // Each clone of the 64 MB state holds 64 MB: the limit is reached after 15 or 16 of them.
  const int64_t state_bytes = int64_t{4000} * 4000 * 4;
  const int fit = static_cast<int>(lang::kMaxStepMemory / state_bytes);
  const std::string script = lines("{\"cmd\": \"clone\"}", fit + 2) + "{\"cmd\": \"drop\", \"handle\": 1}\n" +
                             "{\"cmd\": \"clone\"}\n{\"cmd\": \"apply\", \"move\": 0}\n{\"cmd\": \"forget\"}\n" +
                             "{\"cmd\": \"undo\"}\n{\"cmd\": \"memory\"}\n";
  auto r = keli_input({"step", "tests/step/big_state.keli"}, script);
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto v = json_lines(r.out);
  REQUIRE(v.size() == static_cast<size_t>(fit + 2 + 6));
  int refused = 0;
  for (int i = 0; i < fit + 2; ++i) {
    if (v[i]["ok"] == true) continue;
    ++refused;
    CHECK(error_of(v[i]).find(fmt::format("more than {} (kMaxStepMemory)", lang::kMaxStepMemory)) != std::string::npos);
    CHECK(error_of(v[i]).find("\"drop\"") != std::string::npos);
  }
  CHECK(refused >= 2);
  const size_t after = static_cast<size_t>(fit + 2);
  CHECK(v[after]["ok"] == true);      // drop
  CHECK(v[after + 1]["ok"] == true);  // a clone fits again
  CHECK(v[after + 2]["ok"] == true);  // apply
  CHECK(v[after + 3]["undo"] == 0);   // forget
  CHECK(error_of(v[after + 4]).find("nothing to undo") != std::string::npos);
  CHECK(v[after + 5]["bytes"].get<int64_t>() <= lang::kMaxStepMemory);
}

}  // namespace keli::test
