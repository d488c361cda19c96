// keli report: the records of a simulate run (one file, or its shards' files as keli merge reads
// them) drawn as charts (sim/report_html.hpp) in an HTML page or one SVG picture.
#include <fmt/format.h>

#include <optional>

#include "cli.hpp"
#include "commands.hpp"
#include "sim/report_html.hpp"
#include "sim_output.hpp"

namespace keli::cli {

int cmd_report(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--output"});
  if (a.files.empty()) throw Usage{"name the records file(s) of a keli simulate run"};
  if (a.output.empty()) throw Usage{"-o OUT.html (or OUT.svg) says where to write the report"};
  auto ends = [&](const char* ext) { return a.output.size() >= 4 && a.output.ends_with(ext); };
  const bool svg = ends(".svg");
  if (!svg && !ends(".html") && !ends(".htm")) throw Usage{fmt::format("-o {}: name an .html or .svg file", a.output)};
  std::string problem = util::output_problem(a.output, a.files);
  if (!problem.empty()) return output_error(a.output, "cannot write the report here: " + problem);
  sim::RunHeader whole;
  std::optional<sim::Tally> tally;
  std::optional<sim::ReportData> data;
  try {
    read_run(
        a.files,
        [&](const sim::RunHeader& h) {
          whole = h;
          tally.emplace(static_cast<int>(h.seats.size()));
          data.emplace(h.seats.size());
        },
        [&](const sim::RecordRow& row) {
          tally->add(row);
          data->add(row);
        });
  } catch (const sim::RecordError& e) {
    fmt::print(stderr, "{}\n", e.text());
    return kFailed;
  }
  sim::Report r = tally->report();
  std::string text = svg ? sim::report_svg(whole, r, *data) : sim::report_html(whole, r, *data);
  std::string error = util::write_file(a.output, text, a.files);
  if (!error.empty()) return output_error(a.output, "the report was not written: " + error);
  return kOk;
}

}  // namespace keli::cli
