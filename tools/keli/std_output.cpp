// Standard output checked (std_output.hpp): the first failure's errno is kept where it happens,
// because by the end of the command errno tells nothing.
#include "std_output.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli.hpp"

namespace keli::cli {

namespace {

int g_stdout_errno = 0;  // the first failed write to stdout; 0 when none, -1 for no known errno

void note_failure(int err) {
  if (!g_stdout_errno) g_stdout_errno = err > 0 ? err : -1;
}

// Said on stderr, whatever happens to that write (there is nowhere else to say it).
void say(const std::string& text) {
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace

CheckedCout::CheckedCout() : before_(std::cout.rdbuf(this)) {}

CheckedCout::~CheckedCout() { std::cout.rdbuf(before_); }

CheckedCout::int_type CheckedCout::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  if (std::fputc(traits_type::to_char_type(c), stdout) != EOF) return c;
  note_failure(errno);
  return traits_type::eof();
}

std::streamsize CheckedCout::xsputn(const char* s, std::streamsize n) {
  size_t written = std::fwrite(s, 1, static_cast<size_t>(n), stdout);
  if (written < static_cast<size_t>(n)) note_failure(errno);
  return static_cast<std::streamsize>(written);
}

int CheckedCout::sync() {
  flush_stdout();
  return g_stdout_errno ? -1 : 0;
}

void flush_stdout() {
  if (std::fflush(stdout) != 0) note_failure(errno);
}

bool write_failure(const std::system_error& e) {
  if (std::ferror(stdout)) note_failure(e.code().value());
  return std::ferror(stdout) || std::ferror(stderr);
}

int finish_output(int status) {
  std::cout.flush();
  flush_stdout();
  if (std::ferror(stdout) && !g_stdout_errno) note_failure(0);
  const int failed = status != kOk ? status : kFailed;
  if (g_stdout_errno) {
    say(fmt::format("keli: cannot write to standard output{}\n",
                    g_stdout_errno > 0 ? std::string(": ") + std::strerror(g_stdout_errno) : ""));
    return failed;
  }
  if (std::fflush(stderr) != 0 || std::ferror(stderr)) return failed;
  return status;
}

}  // namespace keli::cli
