// Output that cannot be written, and signals that stop a command: every command with standard
// output on /dev/full (and each output file put there) exits 1 with one line saying why; a pipe
// closed by its reader ends keli by SIGPIPE, or with that line when SIGPIPE is ignored; SIGINT,
// SIGTERM and SIGHUP leave no temporary file, keeping a trace or records as NAME.partial.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support.hpp"
#include "util/output_file.hpp"
#include "util/temp_files.hpp"

namespace keli::test {
namespace fs = std::filesystem;

namespace {

const std::string kGame = "games/raja_pasu.keli";
const std::string kFull = "keli: cannot write to standard output: No space left on device\n";

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / fmt::format("keli_lost_{}_{}", getpid(), name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

size_t count(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// keli started from the source root with stdout on `out_fd`, stderr into `err_path`, stdin from
// /dev/null, and the stop signals at their defaults (SIGPIPE ignored if asked): its pid.
pid_t start_keli(const std::vector<std::string>& args, int out_fd, const std::string& err_path, bool ignore_sigpipe) {
  std::vector<std::string> all = {KELI_BINARY};
  all.insert(all.end(), args.begin(), args.end());
  pid_t pid = fork();
  if (pid != 0) return pid;
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  std::signal(SIGPIPE, ignore_sigpipe ? SIG_IGN : SIG_DFL);
  int in = open("/dev/null", O_RDONLY), err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (chdir(KELI_SOURCE_DIR) != 0 || in < 0 || err < 0) _exit(120);
  dup2(in, 0);
  dup2(out_fd, 1);
  dup2(err, 2);
  execv(KELI_BINARY, argv.data());
  _exit(121);
}

// The wait status of `pid`, killed (and the test failed) if it runs longer than a minute.
int wait_for(pid_t pid) {
  int status = 0;
  for (int tenths = 0; waitpid(pid, &status, WNOHANG) == 0; ++tenths) {
    if (tenths == 600) {
      FAIL_CHECK("keli ran for a minute");
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return status;
}

}  // namespace

TEST_CASE("every command's standard output on a full disk: status 1 and one line", "[cli][output]") {
  REQUIRE(fs::exists("/dev/full"));
  fs::path dir = scratch("stdout");
  const std::string trace = (dir / "t.jsonl").string(), records = (dir / "r.csv").string();
  REQUIRE(keli({"run", kGame, "--seed", "3", "--quiet", "--trace", trace}).status == 0);
  REQUIRE(keli({"simulate", kGame, "-n", "8", "--engine", "interp", "--records", records}).status == 0);
  const std::string moves = (dir / "m.jsonl").string();
  std::ofstream(moves) << "{\"move\": \"sow 0\"}\n";
  struct Case {
    std::vector<std::string> args;
    std::string input;
  };
  const std::string interp = "--engine=interp";
  const std::vector<Case> cases = {
      {{"--help"}, ""},
      {{"--version"}, ""},
      {{"run", "--help"}, ""},
      {{"validate", kGame, "--no-tests"}, ""},
      {{"validate", kGame, "--json"}, ""},
      {{"run", kGame, "--seed", "1"}, ""},
      {{"run", kGame, "--seed", "1", "--quiet"}, ""},
      {{"run", kGame, "--seed", "1", "--board"}, ""},  // more than a buffer: fails while it plays
      {{"play", kGame, "--players", "human,random", "--seed", "1"}, "quit\n"},
      {{"replay", trace}, ""},
      {{"replay", trace, "--expand"}, ""},
      {{"replay", kGame, "--moves", moves}, ""},
      {{"step", kGame}, "{\"cmd\": \"info\"}\n{\"cmd\": \"legal\"}\n"},
      {{"render", kGame, "-o", "-"}, ""},
      {{"render", kGame, "-o", (dir / "b.svg").string()}, ""},
      {{"test", kGame, "--quiet"}, ""},
      {{"describe", kGame}, ""},
      {{"describe", kGame, "--json"}, ""},
      {{"simulate", kGame, "-n", "20", interp}, ""},
      {{"simulate", kGame, "-n", "20", interp, "--json"}, ""},
      {{"simulate", kGame, "-n", "20", interp, "--csv"}, ""},
      {{"merge", records}, ""},
      {{"merge", records, "--json"}, ""},
      {{"match", kGame, "--players", "random,greedy", "-n", "4", interp}, ""},
      {{"bench", kGame, "--games", "3", interp}, ""},
      {{"bench", kGame, "--games", "3", interp, "--json"}, ""},
      {{"fmt", "--check", kGame}, ""},
  };
  for (const auto& c : cases) {
    auto r = keli_stdout("/dev/full", c.args, c.input);
    INFO(fmt::format("keli {} > /dev/full\n{}", fmt::join(c.args, " "), r.err));
    CHECK(r.status == 1);
    CHECK(count(r.err, kFull) == 1);
    CHECK(r.err.find("internal error") == std::string::npos);
    // The same command with a good standard output succeeds: the failure is the full disk's.
    auto good = keli_input(c.args, c.input);
    CHECK(good.status == 0);
  }
  fs::remove_all(dir);
}

TEST_CASE("an output file on a full disk is an error naming it and why", "[cli][output]") {
  REQUIRE(fs::exists("/dev/full"));
  fs::path dir = scratch("files");
  const std::string records = (dir / "r.csv").string();
  REQUIRE(keli({"simulate", kGame, "-n", "8", "--engine", "interp", "--records", records}).status == 0);
  // report names its format by the file's extension: a link to the device.
  const std::string page = (dir / "full.html").string();
  fs::create_symlink("/dev/full", page);
  const std::string why = "No space left on device [E710]";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", kGame, "--quiet", "--trace", "/dev/full"},
        {"simulate", kGame, "-n", "8", "--engine", "interp", "--records", "/dev/full", "--records-format", "csv"},
        {"merge", records, "--records", "/dev/full", "--records-format", "jsonl"},
        {"render", kGame, "-o", "/dev/full"},
        {"report", records, "-o", page},
        {"play", kGame, "--players", "human,random", "--trace", "/dev/full"}}) {
    auto r = keli_input(args, "quit\n");
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err));
    CHECK(r.status == 1);
    CHECK(r.err.find(fmt::format("{}: error: ", args[0] == "report" ? page : "/dev/full")) != std::string::npos);
    CHECK(r.err.find(why) != std::string::npos);
    CHECK(r.err.find("internal error") == std::string::npos);
  }
  // play's `save FILE` says so at the prompt, and the game goes on.
  auto save = keli_input({"play", kGame, "--players", "human,random", "--seed", "1"}, "save /dev/full\nquit\n");
  CHECK(save.out.find("cannot write '/dev/full': writing the file failed: No space left on device") !=
        std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("'-' as an output file is refused where standard output carries the game or the report", "[cli][output]") {
  REQUIRE_FALSE(fs::exists("-"));  // keli runs in this folder: a file named '-' would be written here
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"run", kGame, "--quiet", "--trace", "-"},
        {"play", kGame, "--players", "random,random", "--trace", "-"},
        {"simulate", kGame, "-n", "2", "--engine", "interp", "--records", "-", "--records-format", "jsonl"}}) {
    auto r = keli_input(args, "quit\n");
    INFO(fmt::format("keli {}\n{}", fmt::join(args, " "), r.err));
    CHECK(r.status == 2);
    CHECK(r.err.find(" -: ") != std::string::npos);
    CHECK_FALSE(fs::exists("-"));
  }
}

TEST_CASE("a closed pipe ends keli by SIGPIPE, or is an error where SIGPIPE is ignored", "[cli][output]") {
  fs::path dir = scratch("pipe");
  const std::string err = (dir / "err").string(), trace = (dir / "t.jsonl").string();
  struct Case {
    std::vector<std::string> args;
    bool ignored;
    std::vector<std::string> left;  // in the folder afterwards
  };
  for (const Case& c :
       {Case{{"describe", kGame, "--json"}, false, {"err"}}, Case{{"describe", kGame, "--json"}, true, {"err"}},
        // Stopped at its first line, the trace keeps its header, as after Ctrl-C.
        Case{{"run", kGame, "--seed", "2", "--board", "--trace", trace}, false, {"err", "t.jsonl.partial"}}}) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    close(fds[0]);  // the reader is gone before keli writes
    pid_t pid = start_keli(c.args, fds[1], err, c.ignored);
    close(fds[1]);
    int status = wait_for(pid);
    std::string said = read_text(err);
    INFO(fmt::format("keli {}, SIGPIPE {}: {}", fmt::join(c.args, " "), c.ignored ? "ignored" : "default", said));
    if (c.ignored) {
      CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 1));
      CHECK(said == "keli: cannot write to standard output: Broken pipe\n");
    } else {
      CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE));
      CHECK(said.empty());
    }
    CHECK(names_in(dir) == c.left);
    if (c.left.size() > 1) CHECK(read_text((dir / c.left[1]).string()).rfind("{\"keli\":", 0) == 0);
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  fs::remove_all(dir);
}

namespace {

// keli started with `args` (its output file in `dir`), sent `sig` once its temporary output file
// there holds more than `lines` lines (within 30 s), and waited for: it must die of the signal
// and leave only its stderr file "err" and the output kept as NAME.partial, whose text is given.
std::string stopped_by(int sig, const fs::path& dir, const std::vector<std::string>& args, size_t lines,
                       const std::string& partial) {
  int null = open("/dev/null", O_WRONLY);
  pid_t pid = start_keli(args, null, (dir / "err").string(), false);
  close(null);
  auto written = [&] {
    for (const auto& name : names_in(dir))
      if (name.find(".tmp-") != std::string::npos && count(read_text((dir / name).string()), "\n") > lines) return true;
    return false;
  };
  for (int tenths = 0; tenths < 300 && !written(); ++tenths)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(written());
  kill(pid, sig);
  int status = wait_for(pid);
  INFO(fmt::format("signal {}: {}", sig, read_text((dir / "err").string())));
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == sig));
  // No hidden temporary file is left: what was written is kept, in whole lines.
  CHECK(names_in(dir) == std::vector<std::string>{"err", partial});
  std::string kept = read_text((dir / partial).string());
  CHECK((!kept.empty() && kept.back() == '\n'));
  return kept;
}

}  // namespace

TEST_CASE("a stopping signal keeps a long simulation's whole rows as RECORDS.partial", "[cli][output][signal]") {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    fs::path dir = scratch(fmt::format("signal{}", sig));
    const std::string records = (dir / "r.csv").string();
    // Signalled once some rows (after the header lines) are on disk: within a second or two.
    std::string kept = stopped_by(
        sig, dir, {"simulate", kGame, "-n", "100000000", "--threads", "2", "--engine", "interp", "--records", records},
        2, "r.csv.partial");
    CHECK(kept.rfind("# keli simulate records: ", 0) == 0);
    // Games 0, 1, 2, ... in order, cut short at a whole row: merge says which game is missing.
    auto merged = keli({"merge", records + ".partial"});
    CHECK(merged.status == 1);
    CHECK(merged.err.find("the file ends before game ") != std::string::npos);
    fs::remove_all(dir);
  }
}

TEST_CASE("a stopping signal keeps a game's trace written so far as TRACE.partial", "[cli][output][signal]") {
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    fs::path dir = scratch(fmt::format("trace{}", sig));
    // A slow player, so that the game is still being played when the signal comes.
    std::string kept = stopped_by(sig, dir,
                                  {"run", kGame, "--engine", "interp", "--players", "mcts:iterations=100000000",
                                   "--trace", (dir / "t.jsonl").string(), "--trace-every", "1"},
                                  0, "t.jsonl.partial");
    CHECK(kept.rfind("{\"keli\":", 0) == 0);
    fs::remove_all(dir);
  }
}

TEST_CASE("a stopping signal removes an output file's temporary file, or keeps it as asked", "[output][signal]") {
  fs::path dir = scratch("table");
  struct Case {
    util::OutputFile::OnStop on_stop;
    bool ignored;  // the signal ignored before the handlers are installed (as under nohup)
    std::vector<std::string> left;
  };
  for (const Case& c : {Case{util::OutputFile::OnStop::Remove, false, {}},
                        Case{util::OutputFile::OnStop::KeepPartial, false, {"out.txt.partial"}},
                        Case{util::OutputFile::OnStop::Remove, true, {"out.txt"}}}) {
    pid_t pid = fork();
    if (pid == 0) {
      std::signal(SIGHUP, c.ignored ? SIG_IGN : SIG_DFL);
      util::clean_up_on_stop_signals();
      util::OutputFile f;
      if (!f.open((dir / "out.txt").string(), {}, c.on_stop)) _exit(3);
      f.stream() << "one whole line\n" << std::flush << "half a li";
      std::raise(SIGHUP);
      _exit(f.commit() ? 0 : 4);  // only when the signal was ignored
    }
    int status = wait_for(pid);
    INFO(fmt::format("on stop {}, ignored {}", static_cast<int>(c.on_stop), c.ignored));
    if (c.ignored)
      CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    else
      CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGHUP));
    CHECK(names_in(dir) == c.left);
    if (!c.left.empty())
      CHECK(read_text((dir / c.left[0]).string()) == (c.ignored ? "one whole line\nhalf a li" : "one whole line\n"));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  fs::remove_all(dir);
}

TEST_CASE("an output file is written in whole lines as it goes", "[output]") {
  fs::path dir = scratch("lines");
  util::OutputFile f;
  REQUIRE(f.open((dir / "rows.txt").string(), {}, util::OutputFile::OnStop::KeepPartial));
  auto on_disk = [&] {
    std::vector<std::string> names = names_in(dir);  // the temporary file alone
    return names.size() == 1 ? read_text((dir / names[0]).string()) : std::string("?");
  };
  std::string row(99, 'x');
  size_t seen = 0;
  for (int i = 0; i < 3000; ++i) {
    f.stream() << row.substr(0, 40) << row.substr(40) << '\n';  // a row in pieces
    std::string now = on_disk();
    CHECK(now.size() % 100 == 0);
    seen = std::max(seen, now.size());
  }
  CHECK(seen >= 65536);  // written as it went, not only at the end
  REQUIRE(f.commit());
  CHECK(read_text((dir / "rows.txt").string()).size() == 300000);
  fs::remove_all(dir);
}

}  // namespace keli::test
