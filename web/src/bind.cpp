// The embind binding: the playground's and the trace viewer's calls by name, nothing more (the
// page's JavaScript passes and reads JSON text; playground.hpp says what each call does).
#include <emscripten/bind.h>

#include "playground.hpp"
#include "trace_view.hpp"

using keli::web::Playground;
using keli::web::TraceView;

EMSCRIPTEN_BINDINGS(keli) {
  emscripten::class_<Playground>("Playground")
      .constructor<>()
      .class_function("games", &Playground::games)
      .class_function("read", &Playground::read)
      .class_function("write", &Playground::write)
      .function("load", &Playground::load)
      .function("view", &Playground::view)
      .function("status", &Playground::status)
      .function("choose", &Playground::choose)
      .function("playLegal", &Playground::play_legal)
      .function("roll", &Playground::roll)
      .function("undo", &Playground::undo)
      .function("restart", &Playground::restart)
      .function("sync", &Playground::sync)
      .function("steps", &Playground::steps)
      .function("think", &Playground::think)
      .function("rules", &Playground::rules)
      .function("why", &Playground::why);
  emscripten::class_<TraceView>("TraceView")
      .constructor<>()
      .function("open", &TraceView::open)
      .function("at", &TraceView::at);
}
