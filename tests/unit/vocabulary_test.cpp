// The vocabulary's tables (interpreter/lang/) against themselves and the docs: the arithmetic's
// edge cases, operators and node kinds, the built-ins and limits documented in
// docs/language.md, the command table's --help for every command, and the front end's fuzz
// dictionary (tests/fuzz/dict/frontend.dict) holding every word, operator and built-in.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <regex>
#include <set>
#include <sstream>

#include "keli_keywords.hpp"
#include "lang/arith.hpp"
#include "lang/builtins.hpp"
#include "lang/limits.hpp"
#include "lang/nodes.hpp"
#include "lang/operators.hpp"
#include "support.hpp"

namespace keli::test {
using lang::Operator;

// The arithmetic is constexpr: its promises are checked by the compiler itself.
static_assert(lang::apply<Operator::Mod>(-7, 3).value == 2);
static_assert(lang::apply<Operator::Mod>(7, -3).value == 1);
static_assert(lang::apply<Operator::Mod>(-7, -3).value == 2);
static_assert(lang::apply<Operator::Div>(-7, 2).value == -3);
static_assert(lang::apply<Operator::Div>(1, 0).fault == lang::Fault::DivisionByZero);
static_assert(lang::apply<Operator::Mod>(1, 0).fault == lang::Fault::DivisionByZero);
static_assert(lang::apply<Operator::Div>(INT64_MIN, -1).fault == lang::Fault::Overflow);
static_assert(lang::apply<Operator::Mod>(INT64_MIN, -1).value == 0);
static_assert(lang::apply<Operator::Add>(INT64_MAX, 1).fault == lang::Fault::Overflow);
static_assert(lang::apply<Operator::Mul>(INT64_MIN, -1).fault == lang::Fault::Overflow);
static_assert(lang::apply<Operator::Neg>(INT64_MIN).fault == lang::Fault::Overflow);
static_assert(lang::absolute(INT64_MIN).fault == lang::Fault::Overflow);
static_assert(lang::apply(Operator::Mod, -7, 3).value == 2);
static_assert(!lang::fits_state(int64_t{INT32_MAX} + 1) && lang::fits_state(INT32_MIN));

TEST_CASE("the run-time apply agrees with the compile-time one on every operator", "[vocabulary]") {
  const int64_t samples[] = {INT64_MIN, INT64_MIN + 1, -7, -3, -1, 0, 1, 2, 3, 7, INT32_MAX, INT64_MAX};
  int checked = 0;
  for (const auto& o : lang::kOperators) {
    if (o.id == Operator::In) continue;  // reads the board: each engine answers it
    for (int64_t a : samples)
      for (int64_t b : samples) {
        lang::Result r = lang::apply(o.id, a, b);
        if (r.ok() && o.cls == lang::OpClass::Arithmetic && o.operands == 2) {
          // No wrapped results: a value that is returned is the true one (checked in 128 bits).
          __int128 x = a, y = b, want = 0;
          switch (o.id) {
            case Operator::Add: want = x + y; break;
            case Operator::Sub: want = x - y; break;
            case Operator::Mul: want = x * y; break;
            case Operator::Div: want = x / y; break;
            case Operator::Mod: want = ((x % y) + (y < 0 ? -y : y)) % (y < 0 ? -y : y); break;
            default: break;
          }
          INFO(fmt::format("{} {} {}", a, o.spelling, b));
          CHECK(static_cast<__int128>(r.value) == want);
          ++checked;
        }
      }
  }
  CHECK(checked > 200);
}

TEST_CASE("operators and node kinds map one to one", "[vocabulary]") {
  for (const auto& o : lang::kOperators) {
    INFO(o.spelling);
    CHECK(lang::node_operator(lang::operator_node(o.id)) == o.id);
    CHECK(lang::find_operator(o.spelling, o.operands) == o.id);
    CHECK(std::string(o.meaning).size() > 5);
  }
  CHECK(!lang::find_operator("**", 2));
  CHECK(lang::find_operator("-", 1) == Operator::Neg);
  CHECK(lang::find_operator("-", 2) == Operator::Sub);
  for (int k = 0; k <= static_cast<int>(lang::NodeKind::Fail); ++k) {
    const auto& info = lang::node_kind_info(static_cast<lang::NodeKind>(k));
    CHECK(static_cast<int>(info.id) == k);
    CHECK(std::string(info.meaning).size() > 1);
  }
}

// The lines of one `## ` section of docs/language.md.
static std::string doc_section(const std::string& title) {
  std::string doc = read_text(source_path("docs/language.md"));
  size_t a = doc.find("\n## " + title + "\n");
  REQUIRE(a != std::string::npos);
  size_t b = doc.find("\n## ", a + 4);
  return doc.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

TEST_CASE("docs/language.md lists every built-in, and only those", "[vocabulary][docs]") {
  std::string section = doc_section("Built-in names");
  std::set<std::string> documented;
  std::regex row(R"re(\n\| `([a-z_]+)(\(|`))re");
  for (auto it = std::sregex_iterator(section.begin(), section.end(), row); it != std::sregex_iterator(); ++it)
    documented.insert((*it)[1]);
  std::set<std::string> known;
  for (int i = 0; i < static_cast<int>(lang::Builtin::count_); ++i) {
    const auto& b = lang::builtin_info(static_cast<lang::Builtin>(i));
    known.insert(b.name);
    INFO(b.name);
    CHECK(section.find(fmt::format("`{}(", b.name)) != std::string::npos);
  }
  for (int i = 0; i < static_cast<int>(lang::BuiltinVar::count_); ++i) {
    const auto& v = lang::builtin_var_info(static_cast<lang::BuiltinVar>(i));
    known.insert(v.name);
    INFO(v.name);
    CHECK(section.find(fmt::format("| `{}` |", v.name)) != std::string::npos);
  }
  for (const auto& d : documented) {
    INFO(d << " is documented as a built-in but is none");
    CHECK(known.count(d) == 1);
  }
}

TEST_CASE("docs/language.md's safety bounds are lang/limits.hpp's", "[vocabulary][docs]") {
  std::string section = doc_section("Safety bounds");
  for (const auto& l : lang::kLimits) {
    INFO(l.name);
    // Either a row `| ... | `name` | value ... |` or a mention with its value in the text below.
    std::regex row(fmt::format(R"re(\| `{}` \| {}( |\|))re", l.name, l.value));
    std::regex text(fmt::format(R"re(`{}` \({})re", l.name, l.value));
    CHECK((std::regex_search(section, row) || std::regex_search(section, text)));
  }
}

TEST_CASE("docs/language.md's operator table has every operator at its precedence", "[vocabulary][docs]") {
  std::string section = doc_section("Expressions");
  // Levels in the docs count the conditional as level 1: the table's precedence plus one.
  for (const auto& o : lang::kOperators) {
    INFO(o.spelling);
    std::string quoted = std::regex_replace(std::string(o.spelling), std::regex(R"re([.^$|()\[\]{}*+?\\])re"), "\\$&");
    std::regex row(fmt::format(R"re(\n\| {} \|[^\n]*`{}`)re", o.precedence + 1, quoted));
    CHECK(std::regex_search(section, row));
  }
}

TEST_CASE("the front end's fuzz dictionary has every word, operator and built-in", "[vocabulary][fuzz]") {
  std::string dict = read_text(source_path("tests/fuzz/dict/frontend.dict"));
  REQUIRE(!dict.empty());
  std::vector<std::string> words;
  for (const auto& k : grammar::keywords()) words.push_back(k.text);
  for (const auto& o : lang::kOperators) words.push_back(o.spelling);
#define KELI_DICT_ASSIGN(id, spelling, english) words.push_back(spelling);
  KELI_ASSIGNMENTS(KELI_DICT_ASSIGN)
#undef KELI_DICT_ASSIGN
#define KELI_DICT_AGGREGATE(id, word, empty, meaning, english) words.push_back(word);
  KELI_AGGREGATES(KELI_DICT_AGGREGATE)
#undef KELI_DICT_AGGREGATE
  for (int i = 0; i < static_cast<int>(lang::Builtin::count_); ++i)
    words.push_back(lang::builtin_info(static_cast<lang::Builtin>(i)).name);
  for (int i = 0; i < static_cast<int>(lang::BuiltinVar::count_); ++i)
    words.push_back(lang::builtin_var_info(static_cast<lang::BuiltinVar>(i)).name);
  for (const auto& w : words) {
    INFO(w << " is missing from tests/fuzz/dict/frontend.dict");
    CHECK(dict.find("\n\"" + w + "\"\n") != std::string::npos);
  }
}

TEST_CASE("every command in keli's command table has --help", "[cli][vocabulary]") {
  auto top = keli({"--help"});
  REQUIRE(top.status == 0);
  std::istringstream in(top.out);
  std::vector<std::string> commands;
  bool listing = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "commands:")
      listing = true;
    else if (listing && line.rfind("  ", 0) == 0)
      commands.push_back(line.substr(2, line.find(' ', 2) - 2));
    else if (listing)
      listing = false;
  }
  REQUIRE(commands.size() >= 11);
  for (const auto& c : commands) {
    INFO(c);
    auto r = keli({c, "--help"});
    CHECK(r.status == 0);
    CHECK(r.out.find("usage: keli " + c) != std::string::npos);
  }
}

}  // namespace keli::test
