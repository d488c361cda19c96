// Per-game records of a simulate run, and the header line that says which run they belong to,
// as JSON Lines or CSV (docs/simulation.md). keli simulate --records writes them, keli merge and
// keli report read them; the summary is a Tally of these rows, so a file gives back what its run
// printed, and shards' files merge into what one process prints.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lang/source.hpp"

namespace keli::sim {

enum class RecordFormat { Csv, JsonLines };
// The format a file name asks for: .csv is CSV; .jsonl, .ndjson and .json are JSON Lines.
std::optional<RecordFormat> format_of_path(const std::string& path);
// The format a --records-format word names: csv or jsonl.
std::optional<RecordFormat> format_named(const std::string& word);

// What makes a run: the game (its sources' hash), parameters, players, seed, game count, the
// options that change results. Shards of one run differ only in `shard`.
struct RunHeader {
  std::string game, file, hash;
  std::vector<std::pair<std::string, std::string>> params;  // as compile::Program::params
  std::vector<std::string> seats, players;                  // seat names; one player spec a seat
  uint64_t seed = 1;
  int64_t games = 0;  // in the whole run, all shards
  int shard = 0, shards = 1;
  bool invariants = true;
  int64_t budget = 0;   // --budget; 0: the game's own
  bool points = false;  // the game scores points: each row has them (written only when true)
  // Whether game `index` is this shard's: games shard, shard + shards, ...
  bool holds(int64_t index) const { return index >= 0 && index < games && index % shards == shard; }
  int64_t shard_games() const { return games > shard ? (games - shard - 1) / shards + 1 : 0; }
  int64_t index_of(int64_t position) const { return shard + position * shards; }  // this shard's k-th game
};

// The first thing that differs between the runs of two headers ("the seed: 7 and 8"); "" when they
// are shards of the same run.
std::string run_difference(const RunHeader& a, const RunHeader& b);

// A hash of the text of every file a game was read from (FNV-1a, 64 bits), as "fnv1a64:HEX".
std::string sources_hash(const SourceSet& sources);

enum class End { Rules, Limit };  // ended by the game's rules, or stopped by its move limit

// One game's row.
struct RecordRow {
  int64_t index = 0;
  uint64_t seed = 0;  // the game's own seed: keli run --seed SEED plays it again
  std::vector<std::string> players;
  int64_t decisions = 0, throws = 0, legal = 0;  // legal: legal moves summed over its decisions
  std::vector<int> places;                       // a place per seat (1 = first)
  std::vector<int> points;                       // points per seat in a run whose game scores them, else empty
  End end = End::Rules;
  std::string error;  // "" or the error that stopped the game, as keli run prints it
};

// The header (for CSV a comment line and the column names) and one row, each ending in "\n".
std::string header_text(const RunHeader& h, RecordFormat f);
std::string row_text(const RecordRow& r, RecordFormat f);

// A problem with a records file: "where" is path:line (and :col where known).
struct RecordError {
  std::string where, message;
  std::string text() const { return where + ": error: " + message + " [E711]"; }
};

// Reads a records file row by row, checking each against its header: an index of the run and of
// the shard, in ascending order, one player and place a seat. Throws RecordError.
class RecordReader {
 public:
  RecordReader(std::istream& in, std::string path);  // reads the header
  const RunHeader& header() const { return header_; }
  RecordFormat format() const { return format_; }
  bool next(RecordRow& row);  // false at the end of the file
  const std::string& path() const { return path_; }
  std::string where() const { return path_ + ":" + std::to_string(row_line_); }  // of the last row read

 private:
  bool read_line(std::string& line);
  RecordRow parse_csv(const std::string& line);
  RecordRow parse_json(const std::string& line);
  void check(const RecordRow& row);
  [[noreturn]] void fail(const std::string& message, int col = 0) const;

  std::istream& in_;
  std::string path_;
  RunHeader header_;
  RecordFormat format_ = RecordFormat::JsonLines;
  int64_t line_ = 0, row_line_ = 0, last_index_ = -1;
};

// One JSON Lines row read back (the text row_text wrote), for rows passed between processes.
RecordRow row_from_json(const std::string& line, const std::string& where);

}  // namespace keli::sim
