// keli serve's network face (Boost.Beast and Boost.Asio): one process serving the page's files
// over HTTP and the site's protocol (serve/hub.hpp) over a WebSocket at /ws. A session per
// connection, each on its own strand; every limit of lang/limits.hpp's serve group enforced here
// or in the hub. Only text crosses into the hub: no path, no SQL, no code comes from the network.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "serve/hub.hpp"

namespace keli::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";  // the address listened on (0.0.0.0: every interface)
  int port = 8080;                 // 0: any free port (the one taken is printed)
  std::string site;                // the page's files (tools/web/build.sh's site/); "" none
  int threads = 4;                 // threads running sessions (a computer's search holds one)
};

// Serves until SIGINT or SIGTERM. Once listening it writes "keli serve: listening on
// http://HOST:PORT/" and a newline to `log` (a test reads the port from it). Returns 0 after a
// clean stop; throws std::runtime_error when it cannot listen.
int run_server(Hub& hub, const ServerOptions& options, std::ostream& log);

// The file of `site` that an HTTP target names, or "" when it names none: "/" is index.html; a
// target with "..", a backslash, a NUL or a query outside the folder is refused, and the file
// must be a regular file inside `site` once links are resolved.
std::string site_file(const std::string& site, const std::string& target);

}  // namespace keli::serve
