// keli render: the board as an SVG picture, at the start or at a step of a trace.
#include <fmt/format.h>

#include <iostream>

#include "cli.hpp"
#include "commands.hpp"
#include "render/svg.hpp"
#include "trace/reader.hpp"

namespace keli::cli {

int cmd_render(const std::vector<std::string>& argv) {
  Args a = parse(argv, {"--param", "--params", "--trace", "--ply", "--output"});
  if (a.files.size() != 1) throw Usage{"name one game file"};
  if (a.output.empty()) throw Usage{"say where to write the picture: -o FILE.svg (or -o - for standard output)"};
  if (a.ply >= 0 && a.trace.empty()) throw Usage{"--ply needs --trace: a step of which game?"};
  if (!a.trace.empty() && (!a.params.empty() || !a.params_files.empty()))
    throw Usage{"--param and --params do not go with --trace: the trace records the parameters it was played with"};

  trace::Reader reader;
  SourceSet trace_src;
  diag::Diagnostics trace_diags;
  auto trace_failed = [&] {
    print_diagnostics(trace_src, trace_diags, true);
    return kFailed;
  };
  if (!a.trace.empty()) {
    if (!reader.open(a.trace, trace_diags, trace_src)) return trace_failed();
    a.params = reader.params();
    // Another game's parameters would not compile; say what is wrong instead.
    auto gf = GameFile::open(a.files[0]);
    if (gf->ok() && !reader.header().game.empty() && gf->checked().game_name != reader.header().game) {
      fmt::print(stderr, "{}:1:1: error: the trace is of '{}', but '{}' is '{}' [E701]\n", a.trace,
                 reader.header().game, a.files[0], gf->checked().game_name);
      return kFailed;
    }
  }
  Loaded l = load(a.files[0], a, false);
  if (!l.program) return kFailed;
  const compile::Program& p = *l.program;

  render::SvgOptions opt;
  if (!l.file->checked().tracks.empty()) opt.first_track = static_cast<int>(l.file->checked().regions.size());
  runtime::State s;
  try {
    if (a.trace.empty()) {
      s = runtime::Game(l.program).initial();
      opt.caption = "the start position";
    } else {
      if (!reader.start(l.program, trace_players())) return trace_failed();
      // Only the lines up to the wanted step are read: a long trace's start comes quickly.
      auto next = trace::Reader::Next::Step;
      runtime::State before = reader.state();
      while ((a.ply < 0 || reader.ply() < a.ply) && next == trace::Reader::Next::Step) {
        runtime::State here = reader.state();
        next = reader.next();
        if (next == trace::Reader::Next::Step) before = std::move(here);
      }
      // Every step up to the one drawn is verified as replay verifies it.
      if (next == trace::Reader::Next::Error) return trace_failed();
      if (a.ply > reader.ply()) {
        fmt::print(stderr, "{}: error: --ply {} is past the end of the trace: it has steps 0 to {} [E701]\n", a.trace,
                   a.ply, reader.ply());
        return kFailed;
      }
      s = reader.state();
      opt.highlight = reader.last_sites();
      if (opt.highlight.empty() && reader.ply() > 0) {
        // A move naming no site (a piece, a die) or a throw: outline what it changed instead.
        opt.highlight = render::changed_sites(p, before, reader.state());
        opt.highlight_meaning = "changed by the last step";
      }
      opt.caption = reader.ply() == 0
                        ? fmt::format("{}, step 0: the start position", a.trace)
                        : fmt::format("{}, step {}{}: after {}", a.trace, reader.ply(),
                                      next == trace::Reader::Next::Result ? " (the last)" : "", reader.last_step());
    }
  } catch (const diag::Error& e) {
    fmt::print(stderr, "{}", diag::render(l.file->sources(), {e.code, e.span, e.message, e.hint}));
    return kFailed;
  }

  std::string picture = render::board_svg(p, s, opt);
  if (a.output == "-") {
    std::cout << picture;
    return kOk;
  }
  std::vector<std::string> inputs = input_files(l, a);
  if (!a.trace.empty()) inputs.push_back(a.trace);
  if (std::string why = util::write_file(a.output, picture, inputs); !why.empty())
    return output_error(a.output, fmt::format("cannot write the picture here: {}", why));
  fmt::print("{}: {} ({} sites), {}\n", a.output, p.game_name, p.num_sites, opt.caption);
  return kOk;
}

}  // namespace keli::cli
