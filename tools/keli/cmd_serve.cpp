// keli serve: the game site (docs/serve.md). The rooms and protocol are interpreter/serve/'s hub,
// the network its net.cpp; this opens the database, rebuilds the rooms and runs the server.
#include <fmt/format.h>

#include <iostream>

#include "ast/files.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "serve/net.hpp"

namespace keli::cli {

int cmd_serve(const std::vector<std::string>& argv) {
  Args a = parse(argv,
                 {"--host", "--port", "--db", "--games-dir", "--site", "--threads", "--engine", "--rooms-per-address"});
  if (!a.files.empty()) throw Usage{"keli serve takes no file: its games are those of --games DIR"};
  use_engine(a, runtime::Engine::Auto);  // the referee runs native code where a compiler is present
  const std::string games = a.games_dir.empty() ? ast::own_games_folder() : a.games_dir;
  try {
    serve::Store store(a.db);
    std::vector<std::string> skipped;
    serve::Hub hub(games, store, &skipped);
    if (a.rooms_per_address > 0) hub.set_rooms_per_address(a.rooms_per_address);
    for (const auto& s : skipped) fmt::print(stderr, "keli serve: warning: {} (left out)\n", s);
    fmt::print(stderr, "keli serve: {} games in {}, {} rooms in {}\n", hub.games().size(), games, hub.rooms(), a.db);
    serve::ServerOptions o;
    o.host = a.host, o.port = a.port, o.site = a.site;
    if (a.threads > 0) o.threads = a.threads;
    return serve::run_server(hub, o, std::cout);
  } catch (const std::exception& e) {
    fmt::print(stderr, "keli serve: error: {}\n", e.what());
    return kFailed;
  }
}

}  // namespace keli::cli
