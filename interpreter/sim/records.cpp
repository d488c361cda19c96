// Per-game records as JSON Lines and CSV: the header, the rows, and a reader that checks each row
// against its run and says where a file is wrong (path:line[:col]).
#include "sim/records.hpp"

#include <fmt/format.h>

#include <limits>

#include "util/json.hpp"
#include "util/json_read.hpp"

namespace keli::sim {

namespace {

constexpr const char* kHeaderMark = "# keli simulate records: ";  // a CSV file's first line starts so
constexpr const char* kColumns = "index,seed,players,decisions,throws,legal,places,end,error";
// A run whose game scores points has one more column, last, so that other runs' files are as before.
constexpr const char* kPointsColumn = ",points";
std::string columns(const RunHeader& h) { return std::string(kColumns) + (h.points ? kPointsColumn : ""); }
constexpr int kRecordsVersion = 1;

const char* end_word(End e) { return e == End::Limit ? "limit" : "rules"; }

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string header_json(const RunHeader& h) {
  std::vector<std::string> params, seats, players;
  for (const auto& [k, v] : h.params)
    params.push_back(fmt::format("[{},{}]", util::json_string(k), util::json_string(v)));
  for (const auto& s : h.seats) seats.push_back(util::json_string(s));
  for (const auto& s : h.players) players.push_back(util::json_string(s));
  return fmt::format(
      R"({{"keli_records":{},"game":{},"file":{},"hash":{},"params":[{}],"seats":[{}],"players":[{}],"seed":{},)"
      R"("games":{},"shard":{},"shards":{},"invariants":{},"budget":{}{}}})",
      kRecordsVersion, util::json_string(h.game), util::json_string(h.file), util::json_string(h.hash),
      fmt::join(params, ","), fmt::join(seats, ","), fmt::join(players, ","), h.seed, h.games, h.shard, h.shards,
      h.invariants ? "true" : "false", h.budget, h.points ? R"(,"points":true)" : "");
}

// Typed reads for the reader; each throws JsonFieldError naming the field.
int64_t json_int64(const util::Json& v, const std::string& what) {
  if (!v.is_number_integer()) throw util::JsonFieldError{what + " must be a whole number"};
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
    throw util::JsonFieldError{what + " is too big"};
  return v.get<int64_t>();
}
const util::Json& field(const util::Json& o, const char* key) {
  if (!o.is_object() || !o.contains(key)) throw util::JsonFieldError{fmt::format("'{}' is missing", key)};
  return o.at(key);
}
std::vector<std::string> json_texts(const util::Json& v, const std::string& what) {
  if (!v.is_array()) throw util::JsonFieldError{what + " must be a list"};
  std::vector<std::string> out;
  for (const auto& x : v) out.push_back(util::json_text(x, what));
  return out;
}

RunHeader header_from_json(const util::Json& j) {
  RunHeader h;
  if (util::json_int(field(j, "keli_records"), "keli_records") != kRecordsVersion)
    throw util::JsonFieldError{
        fmt::format("records of version {} are not read by this keli", j["keli_records"].dump())};
  h.game = util::json_text(field(j, "game"), "game");
  h.file = util::json_text(field(j, "file"), "file");
  h.hash = util::json_text(field(j, "hash"), "hash");
  const util::Json& params = field(j, "params");
  if (!params.is_array()) throw util::JsonFieldError{"params must be a list"};
  for (const auto& p : params) {
    auto kv = json_texts(p, "a parameter");
    if (kv.size() != 2) throw util::JsonFieldError{"a parameter must be [name, value]"};
    h.params.emplace_back(kv[0], kv[1]);
  }
  h.seats = json_texts(field(j, "seats"), "seats");
  h.players = json_texts(field(j, "players"), "players");
  h.seed = util::json_uint64(field(j, "seed"), "seed");
  h.games = json_int64(field(j, "games"), "games");
  h.shard = util::json_int(field(j, "shard"), "shard");
  h.shards = util::json_int(field(j, "shards"), "shards");
  if (!field(j, "invariants").is_boolean()) throw util::JsonFieldError{"invariants must be true or false"};
  h.invariants = j["invariants"].get<bool>();
  h.budget = json_int64(field(j, "budget"), "budget");
  if (j.contains("points")) {  // absent in the files of a game without points
    if (!j["points"].is_boolean()) throw util::JsonFieldError{"points must be true or false"};
    h.points = j["points"].get<bool>();
  }
  if (h.games < 0 || h.shards < 1 || h.shard < 0 || h.shard >= h.shards)
    throw util::JsonFieldError{fmt::format("shard {}/{} of {} games is not a shard", h.shard, h.shards, h.games)};
  if (h.seats.empty() || h.players.size() != h.seats.size())
    throw util::JsonFieldError{"there must be one player a seat"};
  return h;
}

RecordRow row_from_object(const util::Json& j) {
  RecordRow r;
  r.index = json_int64(field(j, "index"), "index");
  r.seed = util::json_uint64(field(j, "seed"), "seed");
  r.players = json_texts(field(j, "players"), "players");
  r.decisions = json_int64(field(j, "decisions"), "decisions");
  r.throws = json_int64(field(j, "throws"), "throws");
  r.legal = json_int64(field(j, "legal"), "legal");
  for (int32_t p : util::json_ints(field(j, "places"), "places")) r.places.push_back(p);
  std::string end = util::json_text(field(j, "end"), "end");
  if (end != "rules" && end != "limit") throw util::JsonFieldError{"end must be rules or limit, not '" + end + "'"};
  r.end = end == "limit" ? End::Limit : End::Rules;
  const util::Json& e = field(j, "error");
  if (!e.is_null()) r.error = util::json_text(e, "error");
  if (j.contains("points"))
    for (int32_t p : util::json_ints(j["points"], "points")) r.points.push_back(p);
  return r;
}

// Splits one CSV record into fields (quotes as csv_field writes them); false when a quote is open.
bool split_csv(const std::string& line, std::vector<std::string>& out) {
  out.assign(1, "");
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return !quoted;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  size_t start = 0;
  for (size_t at; (at = s.find(sep, start)) != std::string::npos; start = at + 1)
    out.push_back(s.substr(start, at - start));
  out.push_back(s.substr(start));
  return out;
}

template <typename T>
T whole(const std::string& text, const char* what) {
  try {
    size_t used = 0;
    if (text.empty() || text[0] == '-' || text[0] == '+') throw 0;
    unsigned long long v = std::stoull(text, &used);
    if (used != text.size() || v > static_cast<unsigned long long>(std::numeric_limits<T>::max())) throw 0;
    return static_cast<T>(v);
  } catch (...) {
    throw util::JsonFieldError{fmt::format("{} must be a whole number, not '{}'", what, text)};
  }
}

int whole_signed(const std::string& text, const char* what) {
  bool minus = !text.empty() && text[0] == '-';
  int64_t v = whole<int64_t>(minus ? text.substr(1) : text, what);
  if (v > INT32_MAX) throw util::JsonFieldError{fmt::format("{} is too big: '{}'", what, text)};
  return static_cast<int>(minus ? -v : v);
}

}  // namespace

std::optional<RecordFormat> format_of_path(const std::string& path) {
  auto ends = [&](const std::string& ext) {
    return path.size() >= ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (ends(".csv")) return RecordFormat::Csv;
  if (ends(".jsonl") || ends(".ndjson") || ends(".json")) return RecordFormat::JsonLines;
  return std::nullopt;
}

std::optional<RecordFormat> format_named(const std::string& word) {
  if (word == "csv") return RecordFormat::Csv;
  if (word == "jsonl") return RecordFormat::JsonLines;
  return std::nullopt;
}

std::string run_difference(const RunHeader& a, const RunHeader& b) {
  auto join = [](const std::vector<std::string>& v) { return fmt::format("{}", fmt::join(v, ",")); };
  auto params = [](const RunHeader& h) {
    std::vector<std::string> out;
    for (const auto& [k, v] : h.params) out.push_back(k + "=" + v);
    return fmt::format("{}", fmt::join(out, " "));
  };
  std::vector<std::pair<std::string, std::pair<std::string, std::string>>> fields = {
      {"the game", {a.game, b.game}},
      {"the game file", {a.file, b.file}},
      {"the game's text (hash)", {a.hash, b.hash}},
      {"the parameters", {params(a), params(b)}},
      {"the seats", {join(a.seats), join(b.seats)}},
      {"the players", {join(a.players), join(b.players)}},
      {"the seed", {std::to_string(a.seed), std::to_string(b.seed)}},
      {"the number of games", {std::to_string(a.games), std::to_string(b.games)}},
      {"the number of shards", {std::to_string(a.shards), std::to_string(b.shards)}},
      {"invariant checks", {a.invariants ? "on" : "off", b.invariants ? "on" : "off"}},
      {"the work budget", {std::to_string(a.budget), std::to_string(b.budget)}},
  };
  for (const auto& [what, values] : fields)
    if (values.first != values.second) return fmt::format("{}: '{}' and '{}'", what, values.first, values.second);
  return "";
}

std::string sources_hash(const SourceSet& sources) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a offset basis and prime
  auto mix = [&h](unsigned char c) { h = (h ^ c) * 0x100000001b3ULL; };
  for (size_t i = 0; i < sources.size(); ++i) {
    for (char c : sources.file(static_cast<int>(i)).text) mix(static_cast<unsigned char>(c));
    mix(0);  // a file boundary, so moving text between files changes the hash
  }
  return fmt::format("fnv1a64:{:016x}", h);
}

std::string header_text(const RunHeader& h, RecordFormat f) {
  if (f == RecordFormat::Csv) return fmt::format("{}{}\n{}\n", kHeaderMark, header_json(h), columns(h));
  return header_json(h) + "\n";
}

std::string row_text(const RecordRow& r, RecordFormat f) {
  // A row has points when its run's game scores them (RunHeader::points): to_row gives them so.
  if (f == RecordFormat::Csv)
    return fmt::format("{},{},{},{},{},{},{},{},{}{}\n", r.index, r.seed,
                       csv_field(fmt::format("{}", fmt::join(r.players, ";"))), r.decisions, r.throws, r.legal,
                       fmt::join(r.places, ";"), end_word(r.end), csv_field(r.error),
                       r.points.empty() ? "" : fmt::format(",{}", fmt::join(r.points, ";")));
  std::vector<std::string> players;
  for (const auto& p : r.players) players.push_back(util::json_string(p));
  return fmt::format(R"({{"index":{},"seed":{},"players":[{}],"decisions":{},"throws":{},"legal":{},)"
                     R"("places":[{}],{}"end":"{}","error":{}}})"
                     "\n",
                     r.index, r.seed, fmt::join(players, ","), r.decisions, r.throws, r.legal, fmt::join(r.places, ","),
                     r.points.empty() ? "" : fmt::format(R"("points":[{}],)", fmt::join(r.points, ",")),
                     end_word(r.end), r.error.empty() ? "null" : util::json_string(r.error));
}

RecordRow row_from_json(const std::string& line, const std::string& where) {
  util::Json j;
  util::JsonError e;
  if (!util::parse_json(line, j, e)) throw RecordError{fmt::format("{}:{}", where, e.col), e.message};
  try {
    return row_from_object(j);
  } catch (const util::JsonFieldError& f) {
    throw RecordError{where, f.message};
  }
}

RecordReader::RecordReader(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {
  std::string first;
  row_line_ = 1;
  if (!read_line(first)) fail("this records file is empty: it has no header line");
  std::string json = first;
  if (first.rfind(kHeaderMark, 0) == 0) {
    format_ = RecordFormat::Csv;
    json = first.substr(std::string(kHeaderMark).size());
  } else if (first.empty() || first[0] != '{') {
    fail("this is not a records file of keli simulate: its first line is not a run header");
  }
  util::Json j;
  util::JsonError e;
  if (!util::parse_json(json, j, e)) fail("the run header is not JSON: " + e.message, static_cast<int>(e.col));
  try {
    header_ = header_from_json(j);
  } catch (const util::JsonFieldError& f) {
    fail("the run header is wrong: " + f.message);
  }
  if (format_ == RecordFormat::Csv) {
    std::string names;
    if (!read_line(names) || names != columns(header_)) {
      row_line_ = line_;
      fail(fmt::format("the second line must name the columns: {}", columns(header_)));
    }
  }
}

bool RecordReader::read_line(std::string& line) {
  if (!std::getline(in_, line)) return false;
  ++line_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void RecordReader::fail(const std::string& message, int col) const {
  throw RecordError{col > 0 ? fmt::format("{}:{}", where(), col) : where(), message};
}

RecordRow RecordReader::parse_json(const std::string& line) {
  util::Json j;
  util::JsonError e;
  if (!util::parse_json(line, j, e)) fail("this row is not JSON: " + e.message, static_cast<int>(e.col));
  try {
    return row_from_object(j);
  } catch (const util::JsonFieldError& f) {
    fail(f.message);
  }
}

RecordRow RecordReader::parse_csv(const std::string& text) {
  std::vector<std::string> f;
  split_csv(text, f);
  const size_t want = header_.points ? 10 : 9;
  if (f.size() != want) fail(fmt::format("a row has {} fields ({}), this one {}", want, columns(header_), f.size()));
  try {
    RecordRow r;
    r.index = whole<int64_t>(f[0], "index");
    r.seed = whole<uint64_t>(f[1], "seed");
    r.players = split(f[2], ';');
    r.decisions = whole<int64_t>(f[3], "decisions");
    r.throws = whole<int64_t>(f[4], "throws");
    r.legal = whole<int64_t>(f[5], "legal");
    for (const auto& p : split(f[6], ';')) r.places.push_back(whole<int>(p, "a place"));
    if (f[7] != "rules" && f[7] != "limit") fail("end must be rules or limit, not '" + f[7] + "'");
    r.end = f[7] == "limit" ? End::Limit : End::Rules;
    r.error = f[8];
    if (header_.points)
      for (const auto& p : split(f[9], ';')) r.points.push_back(whole_signed(p, "a number of points"));
    return r;
  } catch (const util::JsonFieldError& e) {
    fail(e.message);
  }
}

void RecordReader::check(const RecordRow& r) {
  if (!header_.holds(r.index))
    fail(fmt::format("game {} is not one of this file's run (shard {}/{} of {} games)", r.index, header_.shard,
                     header_.shards, header_.games));
  if (r.index <= last_index_)
    fail(fmt::format("game {} comes after game {}: the rows must be in game order", r.index, last_index_));
  if (r.players.size() != header_.seats.size() || r.places.size() != header_.seats.size())
    fail(fmt::format("a row needs one player and one place for each of the {} seats", header_.seats.size()));
  if (r.points.size() != (header_.points ? header_.seats.size() : 0))
    fail(header_.points ? fmt::format("a row needs a number of points for each of the {} seats", header_.seats.size())
                        : std::string("a row has points, but its run's game scores none"));
  last_index_ = r.index;
}

bool RecordReader::next(RecordRow& row) {
  std::string line;
  if (!read_line(line)) return false;
  row_line_ = line_;
  if (format_ == RecordFormat::Csv) {
    std::vector<std::string> fields;
    // A quoted field (an error message) may hold line breaks: read on until its quote closes.
    for (std::string more; !split_csv(line, fields);) {
      if (!read_line(more)) fail("a quoted field is not closed before the end of the file");
      line += "\n" + more;
    }
    row = parse_csv(line);
  } else {
    row = parse_json(line);
  }
  check(row);
  return true;
}

}  // namespace keli::sim
