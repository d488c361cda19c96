// The check of a whole scenario document (scenario::check_document): its count of values, each use
// of an alias counting its whole value again, is exact at the bound lang::kMaxYamlNodes, however
// the values are shared; a cycle is refused; keys given twice are found inside aliased values too.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <string>

#include "lang/limits.hpp"
#include "scenario/yaml_read.hpp"

namespace keli::test {
namespace {

// The message of the Failure check_document throws, or "" when the document passes.
std::string check(const std::string& yaml) {
  try {
    scenario::check_document(YAML::Load(yaml));
    return "";
  } catch (const scenario::Failure& f) {
    return f.message;
  }
}

// The start of the message of a document over the bound.
const std::string kTooMany = "more than " + std::to_string(lang::kMaxYamlNodes) + " values";

// A list of `n` scalars written out: `[0, 0, ...]`.
std::string list_of(int64_t n) {
  std::string out = "[";
  for (int64_t i = 0; i < n; ++i) out += i ? ", 0" : "0";
  return out + "]";
}

}  // namespace

TEST_CASE("a document's values are counted with each use of an alias, exactly at the bound", "[scenario][yaml]") {
  // root map (1) + the anchored list (1 + k) + `uses` (1) + m aliases of the list (m * (1 + k)).
  const int64_t k = 999, m = 998;
  const int64_t at_bound = 1 + (1 + k) + 1 + m * (1 + k);
  REQUIRE(at_bound < lang::kMaxYamlNodes);
  const int64_t extra = lang::kMaxYamlNodes - at_bound;  // scalars that fill the count to the bound
  auto doc = [&](int64_t fill) {
    std::string uses = "[";
    for (int64_t i = 0; i < m; ++i) uses += i ? ", *a" : "*a";
    uses += "]";
    std::string out = "x-list: &a " + list_of(k) + "\nuses: " + uses + "\n";
    // `fill` more values: a list (itself and fill - 1 scalars); keys are not counted.
    if (fill >= 2) out += "fill: " + list_of(fill - 1) + "\n";
    if (fill == 1) out += "fill: 0\n";
    return out;
  };
  CHECK(check(doc(extra)) == "");
  CHECK(check(doc(extra + 1)).find(kTooMany) != std::string::npos);
}

TEST_CASE("aliases that multiply a document are refused quickly, and a cycle too", "[scenario][yaml]") {
  std::string doc = "a0: &a0 " + list_of(10) + "\n";
  for (int level = 1; level < 12; ++level) {  // 10^12 values, 12 distinct lists
    std::string row = "[";
    for (int i = 0; i < 10; ++i) row += (i ? ", *a" : "*a") + std::to_string(level - 1);
    doc += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " " + row + "]\n";
  }
  CHECK(check(doc).find(kTooMany) != std::string::npos);
  CHECK(check("x: &loop [0, *loop]\n").find(kTooMany) != std::string::npos);
  CHECK(check("x: &m {a: 1, b: *m}\n").find(kTooMany) != std::string::npos);
}

TEST_CASE("a key given twice is found in a map however it is reached", "[scenario][yaml]") {
  CHECK(check("a: {b: 1, b: 2}\n").find("the key 'b' is given twice") != std::string::npos);
  CHECK(check("x-m: &m {b: 1}\nuse: [*m, *m, {c: 1, c: 2}]\n").find("the key 'c' is given twice") != std::string::npos);
  CHECK(check("a: [[{b: 1}], {c: [1, 2]}]\n") == "");
  CHECK(check("a: {[1]: 2}\n").find("a key must be a single name") != std::string::npos);
}

}  // namespace keli::test
