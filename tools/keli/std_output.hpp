// Standard output and error checked: std::cout writes through stdout's buffer keeping the first
// failure's errno, and every command ends with both flushed and checked (main.cpp), so output
// lost to a full disk, an I/O error or a closed pipe is an error (status 1), never silent.
#pragma once

#include <streambuf>
#include <system_error>

namespace keli::cli {

// While it lives, std::cout writes to stdout's FILE (in order with fmt::print) through it.
class CheckedCout : public std::streambuf {
 public:
  CheckedCout();
  ~CheckedCout() override;
  CheckedCout(const CheckedCout&) = delete;
  CheckedCout& operator=(const CheckedCout&) = delete;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  std::streambuf* before_;
};

// Flushes stdout mid-command (a prompt, a count redrawn), keeping a failure for the end.
void flush_stdout();

// Whether a std::system_error is fmt::print's failed write to stdout (kept for finish_output)
// or to stderr (where nothing more can be said); false for any other.
bool write_failure(const std::system_error& e);

// The status of a command that returned `status`, once stdout and stderr are flushed: kFailed
// (or `status` if it already failed), with "keli: cannot write to standard output: WHY" on
// stderr, when anything written to stdout was lost; kFailed when stderr could not be written.
int finish_output(int status);

}  // namespace keli::cli
