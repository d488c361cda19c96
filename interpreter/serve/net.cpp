// keli serve's sessions (net.hpp): the listener, an HTTP session per connection serving the page's
// files with a Content-Security-Policy, upgraded at /ws to a WebSocket session that carries the
// hub's messages. Each session runs on its own strand; writes are queued, one at a time.
#include "serve/net.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <atomic>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "lang/limits.hpp"

namespace keli::serve {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;

namespace {

constexpr auto kHttpTimeout = std::chrono::seconds(30);  // a request not read in full by then is dropped
constexpr size_t kMaxQueued = 1024;                      // messages a slow client may fall behind by
constexpr uint32_t kMaxHeaderBytes = 16 * 1024;
// What the page may load: its own files, its WebAssembly, its own WebSocket; nothing inline but
// styles (the SVG boards carry style attributes), no frames, no plugins.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'none'";

const char* mime_type(const fs::path& p) {
  static const std::pair<const char*, const char*> kTypes[] = {{".html", "text/html; charset=utf-8"},
                                                               {".js", "text/javascript"},
                                                               {".css", "text/css"},
                                                               {".wasm", "application/wasm"},
                                                               {".json", "application/json"},
                                                               {".svg", "image/svg+xml"},
                                                               {".png", "image/png"},
                                                               {".data", "application/octet-stream"}};
  for (const auto& [ext, type] : kTypes)
    if (p.extension() == ext) return type;
  return "application/octet-stream";
}

// The server's shared parts: the hub, the options, and the connections open (kMaxServeConnections).
struct Shared {
  Hub& hub;
  const ServerOptions& options;
  std::atomic<int> open{0};
};

// One open connection counted; the count drops when the last session holding it ends.
struct Ticket {
  explicit Ticket(Shared& s) : shared(s) { ++shared.open; }
  ~Ticket() { --shared.open; }
  Shared& shared;
};

class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, std::shared_ptr<Ticket> ticket)
      : ws_(std::move(socket)), ticket_(std::move(ticket)), hub_(ticket_->shared.hub) {}
  ~WsSession() {
    if (conn_) hub_.disconnect(conn_);
  }

  void run(http::request<http::string_body> req) {
    beast::error_code ec;
    address_ = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec).address().to_string();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& res) { res.set(http::field::server, "keli serve"); }));
    ws_.read_message_max(static_cast<size_t>(lang::kMaxServeMessage));  // longer: closed with 1009
    ws_.async_accept(req, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    std::weak_ptr<WsSession> self = shared_from_this();
    conn_ = hub_.connect(address_, [self](Hub::Text text) {
      if (auto s = self.lock()) asio::post(s->ws_.get_executor(), [s, text = std::move(text)] { s->send(text); });
    });
    read();
  }
  void read() { ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this())); }
  void on_read(beast::error_code ec, size_t) {
    if (ec) return;  // closed, timed out, or a message too long: the session ends
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (!ws_.got_text())
      send(R"({"t":"error","ok":false,"code":"bad_request","error":"messages are JSON text, not binary"})");
    else
      try {
        hub_.handle(conn_, text);          // its replies come back through send(), on this strand
      } catch (const std::exception& e) {  // the hub answers every fault itself; this is the last guard
        send(message_text(util::Json{{"t", "error"}, {"ok", false}, {"code", "server"}, {"error", e.what()}}));
      }
    read();
  }
  void send(std::string text) { send(Hub::share(std::move(text))); }
  void send(Hub::Text text) {
    if (queue_.size() >= kMaxQueued) {  // a client that does not read: let go of it
      beast::get_lowest_layer(ws_).close();
      return;
    }
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) write();
  }
  void write() {
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front()), beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
  }
  void on_write(beast::error_code ec, size_t) {
    if (ec) return;
    queue_.pop_front();
    if (!queue_.empty()) write();
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::shared_ptr<Ticket> ticket_;
  Hub& hub_;
  beast::flat_buffer buffer_;
  std::deque<Hub::Text> queue_;  // each kept alive until its write is done
  std::string address_;
  int64_t conn_ = 0;
};

using Response = http::response<http::string_body>;

Response answer(const http::request<http::string_body>& req, const std::string& site) {
  Response res{http::status::ok, req.version()};
  res.set(http::field::server, "keli serve");
  res.set("Content-Security-Policy", kContentSecurityPolicy);
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.keep_alive(req.keep_alive());
  auto text = [&](http::status st, const std::string& body) {
    res.result(st);
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = body;
  };
  const std::string target(req.target());
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    text(http::status::method_not_allowed, "keli serve answers GET and HEAD only\n");
  } else if (std::string file = site_file(site, target); !file.empty()) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    res.set(http::field::content_type, mime_type(file));
    res.set(http::field::cache_control, "no-cache");
    res.body() = body.str();
  } else if (target == "/" && site.empty()) {
    text(http::status::ok, "keli serve: the site's protocol is the WebSocket at /ws (docs/serve.md)\n");
  } else {
    text(http::status::not_found, "not found\n");
  }
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, std::shared_ptr<Ticket> ticket)
      : stream_(std::move(socket)), ticket_(std::move(ticket)) {}
  void run() {
    asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::read, shared_from_this()));
  }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(static_cast<uint64_t>(lang::kMaxServeMessage));
    parser_->header_limit(kMaxHeaderBytes);
    stream_.expires_after(kHttpTimeout);
    http::async_read(stream_, buffer_, *parser_, beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
  }
  void on_read(beast::error_code ec, size_t) {
    if (ec) {  // the end of the stream, a timeout, or a request over the limits: the connection ends
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    http::request<http::string_body> req = parser_->release();
    if (websocket::is_upgrade(req) && req.target() == "/ws") {
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), ticket_)->run(std::move(req));
      return;
    }
    auto res = std::make_shared<Response>(answer(req, ticket_->shared.options.site));
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code wec, size_t) {
      if (wec || res->need_eof()) {
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, wec);
        return;
      }
      self->read();
    });
  }

  beast::tcp_stream stream_;
  std::shared_ptr<Ticket> ticket_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

void accept(tcp::acceptor& acceptor, asio::io_context& ioc, Shared& shared) {
  acceptor.async_accept(asio::make_strand(ioc), [&acceptor, &ioc, &shared](beast::error_code ec, tcp::socket socket) {
    if (!ec && shared.open.load() < lang::kMaxServeConnections) {
      // A reply and the views after it are small writes in a row: without NODELAY the second
      // waits for the client's delayed acknowledgement of the first (up to 40 ms a move).
      beast::error_code nodelay;
      socket.set_option(tcp::no_delay(true), nodelay);
      std::make_shared<HttpSession>(std::move(socket), std::make_shared<Ticket>(shared))->run();
    }
    // else: an accept error, or one connection too many: the socket closes as it goes
    if (acceptor.is_open()) accept(acceptor, ioc, shared);
  });
}

}  // namespace

std::string site_file(const std::string& site, const std::string& target) {
  if (site.empty()) return "";
  std::string path = target.substr(0, target.find_first_of("?#"));
  if (path.empty() || path[0] != '/' || path.find("..") != std::string::npos || path.find('\\') != std::string::npos ||
      path.find('\0') != std::string::npos)
    return "";
  if (path.back() == '/') path += "index.html";
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(site, ec);
  if (ec) return "";
  const fs::path file = fs::weakly_canonical(root / path.substr(1), ec);
  if (ec) return "";
  const fs::path inside = file.lexically_relative(root);
  if (inside.empty() || *inside.begin() == "..") return "";
  return fs::is_regular_file(file, ec) ? file.string() : "";
}

int run_server(Hub& hub, const ServerOptions& options, std::ostream& log) {
  asio::io_context ioc(options.threads);
  Shared shared{hub, options, {}};
  beast::error_code ec;
  const auto address = asio::ip::make_address(options.host, ec);
  if (ec) throw std::runtime_error("'" + options.host + "' is not an address to listen on");
  tcp::acceptor acceptor(ioc);
  const tcp::endpoint at(address, static_cast<unsigned short>(options.port));
  acceptor.open(at.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(at, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + options.host + ":" + std::to_string(options.port) + ": " +
                             ec.message());
  log << "keli serve: listening on http://" << options.host << ":" << acceptor.local_endpoint().port() << "/"
      << std::endl;
  accept(acceptor, ioc, shared);
  asio::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) {
    acceptor.close();
    ioc.stop();
  });
  // Throws and computer players run on their own threads: a search never holds a session.
  asio::thread_pool referee(static_cast<size_t>(options.threads));
  hub.set_defer([&referee](std::function<void()> work) { asio::post(referee, std::move(work)); });
  std::vector<std::thread> threads;
  for (int i = 1; i < options.threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : threads) t.join();
  hub.stop();  // computers stop between two steps; the database has every step made
  referee.join();
  hub.set_defer(nullptr);
  log << "keli serve: stopped" << std::endl;
  return 0;
}

}  // namespace keli::serve
