// The playground's game: loading with validate's diagnostics, the position as JSON for the page,
// steps with undo, and the Web Worker's computer players (playground.hpp).
#include "playground.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "agents/agent.hpp"
#include "render/step_view.hpp"
#include "render/svg.hpp"
#include "rulebook/rulebook.hpp"
#include "rulebook/why_not.hpp"

namespace keli::web {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Every diagnostic as validate --json writes it, with its rendered text (caret and hint) added.
json diagnostics_json(const SourceSet& src, const std::vector<diag::Diagnostic>& all) {
  json out = json::parse(diag::render_json(src, all));
  for (size_t i = 0; i < all.size() && i < out.size(); ++i) out[i]["rendered"] = diag::render(src, all[i]);
  return out;
}

}  // namespace

Playground::Playground() {
  // Paths then read as on the command line ("games/GAME.keli:3:5"), the packed files being
  // under /keli (KELI_SOURCE_ROOT).
  std::error_code ec;
  fs::current_path("/keli", ec);
}

std::string Playground::games() {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("games", ec))
    if (e.path().extension() == ".keli") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return json(out).dump();
}

std::string Playground::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void Playground::write(const std::string& path, const std::string& text) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream(path, std::ios::binary) << text;
}

std::string Playground::load(const std::string& path) {
  file_ = GameFile::open(path);
  program_.reset();
  game_.reset();
  diag::Diagnostics extra;
  if (file_->ok()) program_ = file_->compile({}, extra);
  std::vector<diag::Diagnostic> all = file_->diagnostics().all();
  all.insert(all.end(), extra.all().begin(), extra.all().end());
  json out = {{"ok", program_ != nullptr}, {"diagnostics", diagnostics_json(file_->sources(), all)}};
  if (!program_) return out.dump();
  first_track_ = render::first_track(file_->checked());
  out["game"] = program_->game_name;
  out["players"] = program_->seat_names;
  try {
    game_ = std::make_unique<runtime::Game>(program_);
    states_ = {game_->initial()};
  } catch (const diag::Error& e) {
    game_.reset();
    out["ok"] = false;
    out["diagnostics"].push_back(diagnostics_json(file_->sources(), {{e.code, e.span, e.message, e.hint}})[0]);
  }
  steps_.clear();
  history_.clear();
  shown_.reset();
  return out.dump();
}

std::string Playground::error_json(const std::string& what) const {
  return json{{"ok", false}, {"error", what}}.dump();
}

std::string Playground::status() const {
  if (!game_) return error_json("no game is loaded");
  const runtime::State& s = states_.back();
  return json{{"ok", true},
              {"ply", game_->ply(s)},
              {"over", game_->over(s)},
              {"chance", game_->chance(s)},
              {"mover", game_->mover(s)},
              {"steps", steps_.size()},
              {"choices", json::array()}}
      .dump();
}

std::string Playground::view() {
  if (!game_) return error_json("no game is loaded");
  try {
    return position();
  } catch (const diag::Error& e) {  // a fault of the rules while listing or trying the moves
    return error_json(diag::render(file_->sources(), {e.code, e.span, e.message, e.hint}));
  }
}

std::string Playground::position() {
  const compile::Program& p = *program_;
  const runtime::State& s = states_.back();
  json out = {{"ok", true}, {"ply", game_->ply(s)}, {"over", game_->over(s)}, {"chance", game_->chance(s)}};
  out["mover"] = game_->mover(s);
  // The last kHistoryShown steps only (the page lists no more): a long game's view stays small.
  const size_t from = history_.size() > kHistoryShown ? history_.size() - kHistoryShown : 0;
  out["history"] = std::vector<std::string>(history_.begin() + static_cast<std::ptrdiff_t>(from), history_.end());
  out["history_from"] = from;
  out["steps"] = steps_.size();
  render::SvgOptions opt;
  opt.first_track = first_track_;
  opt.caption = steps_.empty() ? "the start position" : "after " + history_.back();
  if (!steps_.empty()) {
    opt.highlight = render::changed_sites(p, states_[states_.size() - 2], s);
    opt.highlight_meaning = "changed by the last step";
  }
  out["changed"] = opt.highlight;
  json choices = json::array();
  std::vector<int> shown;  // kept only when the whole view is made (listing may throw)
  if (!game_->over(s) && !game_->chance(s)) {
    std::vector<runtime::Move> legal;
    game_->legal(s, legal);
    for (const auto& c : game_->choices(s, legal)) {
      int index = static_cast<int>(std::find(legal.begin(), legal.end(), c.move) - legal.begin());
      choices.push_back({{"text", c.text},
                         {"call", game_->call_text(c.move)},
                         {"legal", index},
                         {"sites", render::move_sites(p, *game_, s, c.move)}});
      shown.push_back(index);
    }
  }
  out["choices"] = choices;
  size_t thrown = steps_.size();  // the last throw is step thrown - 1, states_[thrown] right after it
  while (thrown > 0 && steps_[thrown - 1].is_move) --thrown;
  if (thrown > 0)
    render::write_dice(out, render::shown_dice(p, steps_[thrown - 1].roll, states_[thrown], s, thrown < steps_.size()));
  if (!steps_.empty()) render::write_slides(out, render::slides(p, first_track_, states_[states_.size() - 2], s));
  if (game_->over(s)) out["places"] = game_->places(s);
  if (game_->over(s) && game_->scores_points()) out["points"] = game_->points(s);
  opt.piece_labels = render::piece_labels(*game_, s);
  out["svg"] = render::board_svg(p, s, opt);
  shown_ = std::move(shown);
  return out.dump();
}

std::string Playground::apply(const Step& step) {
  if (!game_) return error_json("no game is loaded");
  runtime::State s = states_.back();
  std::string text;
  try {
    if (step.is_move) {
      std::vector<runtime::Move> legal;
      game_->legal(s, legal);
      if (game_->over(s) || game_->chance(s) || step.legal_index < 0 ||
          step.legal_index >= static_cast<int>(legal.size()))
        return error_json("that move is not legal here");
      const runtime::Move& m = legal[step.legal_index];
      text = program_->seat_names[game_->mover(s)] + ": " + game_->notation(s, m);
      game_->apply(s, m);
    } else {
      if (!game_->chance(s)) return error_json("no throw is due here");
      text = game_->roll_notation(step.roll);
      game_->apply_roll(s, step.roll);
    }
  } catch (const diag::Error& e) {
    return error_json(diag::render(file_->sources(), {e.code, e.span, e.message, e.hint}));
  }
  states_.push_back(std::move(s));
  steps_.push_back(step);
  history_.push_back(text);
  shown_.reset();
  return json{{"ok", true}}.dump();
}

std::string Playground::choose(int index) {
  // The choices the page shows are those of the last view of this position: no second listing.
  if (shown_) {
    if (index < 0 || index >= static_cast<int>(shown_->size())) return error_json("no such choice");
    return play_legal((*shown_)[static_cast<size_t>(index)]);
  }
  json v = json::parse(view());
  if (!v["ok"] || index < 0 || index >= static_cast<int>(v["choices"].size())) return error_json("no such choice");
  return play_legal(v["choices"][index]["legal"].get<int>());
}

std::string Playground::play_legal(int legal_index) { return apply(Step{true, legal_index, {}}); }

std::string Playground::roll(double seed) {
  if (!game_ || !game_->chance(states_.back())) return error_json("no throw is due here");
  runtime::Rng rng(static_cast<uint64_t>(seed) ^ (static_cast<uint64_t>(steps_.size()) << 32));
  std::vector<int32_t> values = game_->sample_roll(states_.back(), rng);
  return apply(Step{false, -1, values});
}

std::string Playground::undo() {
  if (steps_.empty()) return error_json("nothing to undo");
  states_.pop_back();
  steps_.pop_back();
  history_.pop_back();
  shown_.reset();
  return json{{"ok", true}}.dump();
}

std::string Playground::restart() {
  while (!steps_.empty()) undo();
  return json{{"ok", game_ != nullptr}}.dump();
}

std::string Playground::steps(int from) const {
  json out = json::array();
  for (size_t k = static_cast<size_t>(std::max(from, 0)); k < steps_.size(); ++k)
    out.push_back(steps_[k].is_move ? json{{"m", steps_[k].legal_index}} : json{{"r", steps_[k].roll}});
  return out.dump();
}

std::string Playground::sync(int from, const std::string& steps_json) {
  json want = json::parse(steps_json, nullptr, false);
  if (!want.is_array() || from < 0 || from > static_cast<int>(steps_.size()))
    return error_json("the steps do not follow this game's");
  while (static_cast<int>(steps_.size()) > from) undo();
  for (const auto& w : want) {
    Step step =
        w.contains("m") ? Step{true, w["m"].get<int>(), {}} : Step{false, -1, w["r"].get<std::vector<int32_t>>()};
    std::string r = apply(step);
    if (r.find("\"ok\":false") != std::string::npos) return r;
  }
  return json{{"ok", true}}.dump();
}

std::string Playground::rules() const {
  if (!game_) return "";
  return rulebook::print(rulebook::build(*file_, program_), rulebook::Format::Html);
}

std::string Playground::why(int site) {
  if (!game_) return error_json("no game is loaded");
  try {
    rulebook::WhyNot w = rulebook::why_not_at(file_->checked(), file_->sources(), *game_, states_.back(), site);
    json failed = json::array();
    for (const auto& f : w.failed)
      failed.push_back({{"rule", f.rule}, {"anchor", f.anchor}, {"at", f.where}, {"message", f.message}});
    return json{{"ok", true}, {"legal", w.legal}, {"message", w.message}, {"failed", failed}}.dump();
  } catch (const diag::Error& e) {  // a fault of the rules while trying the moves
    return error_json(diag::render(file_->sources(), {e.code, e.span, e.message, e.hint}));
  }
}

std::string Playground::think(const std::string& spec, double seed) {
  if (!game_) return error_json("no game is loaded");
  const runtime::State& s = states_.back();
  if (game_->over(s) || game_->chance(s)) return error_json("no decision is due here");
  std::string why;
  auto agent = agents::make_agent(spec, *program_, why);
  if (!agent) return error_json(why);
  std::vector<runtime::Move> legal;
  game_->legal(s, legal);
  runtime::Rng rng(static_cast<uint64_t>(seed) ^ (static_cast<uint64_t>(steps_.size()) << 32));
  try {
    size_t i = agent->choose(*game_, s, legal, rng);
    return json{{"ok", true}, {"legal", i}}.dump();
  } catch (const diag::Error& e) {
    return error_json(diag::render(file_->sources(), {e.code, e.span, e.message, e.hint}));
  }
}

}  // namespace keli::web
