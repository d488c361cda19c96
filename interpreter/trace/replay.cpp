// keli replay's work: the game a trace names compiled with its parameters, then every line
// verified by the one reader; optionally the trace written again with the whole state on every
// step (--expand) for tools that want states without re-running the game.
#include <fmt/format.h>

#include <memory>

#include "session/game_file.hpp"
#include "trace/reader.hpp"
#include "trace/trace.hpp"

namespace keli::trace {

namespace {

// The game the header names, compiled with its parameters; null when it cannot be (reported).
std::shared_ptr<const compile::Program> open_game(Reader& r, const std::string& trace_path) {
  auto report = [&](const std::string& message, const std::string& hint) {
    r.fail_here(message, hint);
    return nullptr;
  };
  const ast::Located found = locate_game(r.header().file, trace_path);
  const std::string& game_path = found.path;
  if (found.outside) {
    // The game exists, but a trace may not make Keli read any file at all: its owner says which
    // folder to trust, exactly.
    const std::string& folder = found.outside_folder;
    r.fail_here(fmt::format("the game file '{}' named by the trace lies outside the folders games may be read from",
                            r.header().file),
                fmt::format("games are read from the current folder's tree, the trace's, Keli's stdlib/ and games/, "
                            "$KELI_PATH and the --path folders; to allow this one, add --path {}",
                            folder),
                diag::Code::forbidden_file);
    return nullptr;
  }
  if (game_path.empty())
    return report(fmt::format("cannot find the game file '{}' named by the trace", r.header().file),
                  "run replay from the folder the game was run in, or keep the trace beside the game");
  auto gf = GameFile::open(game_path);
  diag::Diagnostics cd;
  auto prog = gf->ok() ? gf->compile(r.params(), cd) : nullptr;
  if (!prog) {
    const auto& all = gf->ok() ? cd.all() : gf->diagnostics().all();
    std::string why;
    if (!all.empty())
      why = fmt::format("{}{}", all.front().message, all.front().hint.empty() ? "" : " (" + all.front().hint + ")");
    return report(fmt::format("the game '{}' named by the trace does not compile", game_path), why);
  }
  return prog;
}

// What a matching trace left unchecked, said so that no one takes it for checked: the seed and
// players of a trace whose throws were not drawn from its seed.
std::string unchecked(const Reader& r) {
  const Header& h = r.header();
  if (h.seeded || (h.seed == 0 && h.players.empty())) return "";
  return fmt::format("\nnote: every move, throw and state was checked, but not the seed {} or the players it names: {}",
                     h.seed,
                     h.version == 1 ? "a version 1 trace does not say that its throws were drawn from its seed"
                                    : "its throws were not drawn from its seed (\"seeded\": false)");
}

}  // namespace

int replay(const std::string& path, diag::Diagnostics& diags, SourceSet& src, const ReplayOptions& options) {
  Reader r;
  if (!r.open(path, diags, src)) return 1;
  auto prog = open_game(r, path);
  if (!prog || !r.start(prog, options.players)) return 1;
  std::unique_ptr<Writer> expand;
  if (options.expand) {
    expand = std::make_unique<Writer>(*options.expand, *prog);
    Header h = r.header();
    h.every = 1;
    expand->header(h);
  }
  while (true) {
    switch (r.next()) {
      case Reader::Next::Step:
        if (!expand) break;
        if (r.last_was_move())
          expand->move(r.game(), r.last_mover(), r.last_move(), r.last_notation(), r.state());
        else
          expand->roll(r.game(), r.last_roll(), r.state());
        break;
      case Reader::Next::Result:
        if (expand) expand->result(r.game(), r.state());
        if (r.next() != Reader::Next::End) return 1;
        if (options.log) *options.log << fmt::format("replayed {} steps: the trace matches{}\n", r.ply(), unchecked(r));
        return 0;
      case Reader::Next::End:
        r.fail_here("the trace ends before the game's result", "the file may be truncated");
        return 1;
      case Reader::Next::Error: return 1;
    }
  }
}

}  // namespace keli::trace
