// What keli simulate and keli merge share: the run header of a simulate command, the records file
// it writes (in game order, through a safe output file), and the summary printed from a Tally of
// the rows, so that a merge of shards prints the bytes one process prints.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "sim/records.hpp"
#include "sim/simulate.hpp"
#include "util/output_file.hpp"

namespace keli::cli {

enum class SummaryForm { Text, Json, Csv };
SummaryForm summary_form(const Args& a);  // --json, --csv or text (a usage error for both)

// The run a simulate command plays, from its loaded game and options.
sim::RunHeader run_header(const Loaded& l, const Args& a, const std::vector<std::string>& specs);

// The records file of --records: its format from --records-format or the name's extension.
struct RecordsOut {
  util::OutputFile file;
  sim::RecordFormat format = sim::RecordFormat::JsonLines;
  bool on = false;
  // False (the error printed) when the name or format is wrong or the file cannot be written.
  bool open(const Args& a, const sim::RunHeader& h, const std::vector<std::string>& inputs);
  void write(const sim::RecordRow& r);
  bool commit();  // false, with the message printed, when it cannot be put in place
};

// Prints the summary (stdout) and the first error (stderr); `timing` ("time: ...") ends the
// text form. Returns the exit status: kFailed when a game stopped with an error.
int print_summary(const sim::RunHeader& h, const sim::Report& r, SummaryForm form,
                  const std::optional<std::string>& timing);

// The rows of a whole run from the records files of its shards (cmd_merge.cpp), in game order:
// `start` with the whole run's header, then `each` row. Throws sim::RecordError.
void read_run(const std::vector<std::string>& paths, const std::function<void(const sim::RunHeader& whole)>& start,
              const std::function<void(const sim::RecordRow& row)>& each);

// keli simulate --mpi (sim_mpi.cpp): the run spread over the ranks of mpirun, printed by rank 0.
int simulate_mpi(const Args& a, SummaryForm form);

}  // namespace keli::cli
