// The trace viewer (trace_view.hpp): every step of a trace read and verified once, then drawn.
#include "trace_view.hpp"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "render/svg.hpp"
#include "trace/reader.hpp"

namespace keli::web {

using nlohmann::json;

namespace {

json failed(const SourceSet& src, const diag::Diagnostics& d) {
  std::string text;
  for (const auto& x : d.all()) text += diag::render(src, x);
  return json{{"ok", false}, {"error", text.empty() ? "the trace cannot be read" : text}};
}

}  // namespace

std::string TraceView::open(const std::string& trace_path, const std::string& game_path) {
  shots_.clear();
  finished_ = false;
  trace::Reader reader;
  SourceSet src;
  diag::Diagnostics diags;
  if (!reader.open(trace_path, diags, src)) return failed(src, diags).dump();
  std::string game = game_path;
  if (game.empty())  // the packed game the trace was written from, wherever that was
    game = "games/" + std::filesystem::path(reader.header().file).filename().string();
  file_ = GameFile::open(game);
  if (!file_->ok()) return failed(file_->sources(), file_->diagnostics()).dump();
  if (!reader.header().game.empty() && file_->checked().game_name != reader.header().game)
    return json{{"ok", false},
                {"error", "the trace is of '" + reader.header().game + "', but '" + game + "' is '" +
                              file_->checked().game_name + "': load that game first"}}
        .dump();
  diag::Diagnostics cd;
  program_ = file_->compile(reader.params(), cd);
  if (!program_) return failed(file_->sources(), cd).dump();
  first_track_ = file_->checked().tracks.empty() ? -1 : static_cast<int>(file_->checked().regions.size());
  try {
    if (!reader.start(program_)) return failed(src, diags).dump();
    shots_.push_back({reader.state(), "the start position", {}});
    for (;;) {
      runtime::State before = reader.state();
      auto next = reader.next();
      if (next == trace::Reader::Next::Error) return failed(src, diags).dump();
      if (next != trace::Reader::Next::Step) {
        finished_ = next == trace::Reader::Next::Result;
        break;
      }
      std::vector<int> sites = reader.last_sites();
      if (sites.empty()) sites = render::changed_sites(*program_, before, reader.state());
      shots_.push_back({reader.state(), reader.last_step(), sites});
    }
  } catch (const diag::Error& e) {
    return json{{"ok", false}, {"error", diag::render(file_->sources(), {e.code, e.span, e.message, e.hint})}}.dump();
  }
  return json{{"ok", true}, {"game", program_->game_name}, {"steps", shots_.size() - 1}, {"finished", finished_}}
      .dump();
}

std::string TraceView::at(int k) const {
  if (shots_.empty()) return json{{"ok", false}, {"error", "no trace is open"}}.dump();
  k = std::clamp(k, 0, static_cast<int>(shots_.size()) - 1);
  render::SvgOptions opt;
  opt.first_track = first_track_;
  opt.highlight = shots_[k].sites;
  opt.highlight_meaning = "changed by this step";
  opt.caption = k == 0 ? "step 0: the start position" : "step " + std::to_string(k) + ": " + shots_[k].text;
  return json{{"ok", true},
              {"ply", k},
              {"steps", shots_.size() - 1},
              {"text", shots_[k].text},
              {"svg", render::board_svg(*program_, shots_[k].state, opt)}}
      .dump();
}

}  // namespace keli::web
