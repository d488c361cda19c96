// keli merge: the records files of a run's shards (keli simulate --shard I/N --records F) read
// side by side in game order and tallied into the summary one process would have printed; with
// --records OUT, the rows of the whole run in one file. Files of other runs, a shard given twice
// or missing, and rows missing or out of place are positioned errors (E711).
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <memory>
#include <optional>

#include "cli.hpp"
#include "commands.hpp"
#include "sim_output.hpp"

namespace keli::cli {

namespace {

struct Input {
  std::unique_ptr<std::ifstream> stream;
  std::unique_ptr<sim::RecordReader> reader;
};

int records_error(const std::string& text) {
  fmt::print(stderr, "{}\n", text);
  return kFailed;
}

struct Opened {};  // the output could not be opened (the error printed)

// Opens every file and checks that they are the shards of one run, each once; by shard number.
void open_shards(const std::vector<std::string>& paths, std::vector<Input>& inputs, std::map<int, size_t>& by_shard) {
  for (const auto& path : paths) {
    Input in;
    in.stream = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*in.stream) throw sim::RecordError{path, "cannot read the records file"};
    in.reader = std::make_unique<sim::RecordReader>(*in.stream, path);
    const sim::RunHeader& h = in.reader->header();
    if (!inputs.empty()) {
      const sim::RunHeader& first = inputs[0].reader->header();
      std::string diff = sim::run_difference(first, h);
      if (!diff.empty())
        throw sim::RecordError{
            path + ":1", fmt::format("these records are not of the run of {}: {}", inputs[0].reader->path(), diff)};
    }
    if (auto seen = by_shard.find(h.shard); seen != by_shard.end())
      throw sim::RecordError{path + ":1", fmt::format("shard {}/{} is also in {}: its games would be counted twice",
                                                      h.shard, h.shards, inputs[seen->second].reader->path())};
    by_shard[h.shard] = inputs.size();
    inputs.push_back(std::move(in));
  }
  const sim::RunHeader& h = inputs[0].reader->header();
  for (int s = 0; s < h.shards; ++s)
    if (!by_shard.count(s) && h.games > s)
      throw sim::RecordError{
          inputs[0].reader->path(),
          fmt::format("shard {}/{} of this run is missing (games {}, {}, ...): give its records file too", s, h.shards,
                      s, s + h.shards)};
}

}  // namespace

void read_run(const std::vector<std::string>& paths, const std::function<void(const sim::RunHeader& whole)>& start,
              const std::function<void(const sim::RecordRow& row)>& each) {
  std::vector<Input> inputs;
  std::map<int, size_t> by_shard;
  open_shards(paths, inputs, by_shard);
  sim::RunHeader whole = inputs[0].reader->header();
  whole.shard = 0;
  whole.shards = 1;
  start(whole);
  const int shards = inputs[0].reader->header().shards;
  for (int64_t index = 0; index < whole.games; ++index) {
    sim::RecordReader& r = *inputs[by_shard.at(static_cast<int>(index % shards))].reader;
    sim::RecordRow row;
    if (!r.next(row))
      throw sim::RecordError{r.where(),
                             fmt::format("the file ends before game {} of its shard: a shard cut short?", index)};
    if (row.index != index)
      throw sim::RecordError{r.where(), fmt::format("game {} is missing: this row is game {}", index, row.index)};
    each(row);
  }
}

int cmd_merge(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--json", "--csv", "--records"});
  SummaryForm form = summary_form(a);
  if (a.files.empty()) throw Usage{"name the records files of the shards to merge"};
  try {
    RecordsOut out;
    sim::RunHeader whole;
    std::optional<sim::Tally> tally;
    bool opened = true;
    read_run(
        a.files,
        [&](const sim::RunHeader& h) {
          whole = h;
          tally.emplace(static_cast<int>(h.seats.size()));
          opened = out.open(a, whole, a.files);
          if (!opened) throw Opened{};
        },
        [&](const sim::RecordRow& row) {
          tally->add(row);
          out.write(row);
        });
    if (!out.commit()) return kFailed;
    return print_summary(whole, tally->report(), form, std::nullopt);
  } catch (const Opened&) {
    return kFailed;  // said already
  } catch (const sim::RecordError& e) {
    return records_error(e.text());
  }
}

}  // namespace keli::cli
