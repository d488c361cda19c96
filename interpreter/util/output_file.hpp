// Writing an output file safely: every file a command writes goes to a temporary file in the
// target's folder and is renamed into place only when complete, so a failed command never leaves
// a half-written or truncated file where a good one was (docs/cli.md, "Output files").
#pragma once

#include <chrono>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace keli::util {

// The stream of an output file: whole lines gathered and written to its descriptor when
// kOutputChunkBytes have gathered or a line ends kOutputFlushMs after the last write, so that
// the file on disk always ends with a whole line (a trace or records file kept after a signal
// has no half row) and a long run's lines reach the disk as it goes. Every write is checked.
class LineWriter : public std::streambuf {
 public:
  void start(int fd);                   // writes to fd from now on (-1: nowhere)
  bool write_all();                     // writes every byte gathered; false on a failed write
  int error() const { return error_; }  // the errno of the first failed write, 0 if none

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override { return write_all() ? 0 : -1; }

 private:
  void gathered(bool line_end);  // writes the whole lines gathered when it is time
  bool write_out(size_t n);      // the first n bytes gathered
  int fd_ = -1;
  int error_ = 0;
  std::string pending_;
  size_t lines_end_ = 0;  // pending_'s whole lines: the bytes up to its last line break
  std::chrono::steady_clock::time_point due_;
};

// One output file of a command. open() refuses a target that is one of the command's inputs
// (the same file by device and inode, whatever the name or link it is reached by), follows a
// symbolic link to the file it names (the link stays a link), and reports a link loop. A target
// that exists and is not a regular file (a device such as /dev/null, a pipe) is written directly.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // an open file neither committed nor kept: the temporary file is removed

  // What a signal that stops the command (temp_files.hpp) does with the temporary file: remove
  // it, or keep the whole lines written so far as PATH.partial (a trace, records of a long run).
  enum class OnStop { Remove, KeepPartial };
  // Opens the temporary file for `path`; false with error() when it cannot, or when `path` is the
  // same file as one of `inputs` (names that do not exist are ignored).
  bool open(const std::string& path, const std::vector<std::string>& inputs = {}, OnStop on_stop = OnStop::Remove);
  std::ostream& stream() { return out_; }
  // Flushes and renames the temporary file over the target; false with error() if that fails
  // (the target is then untouched and the temporary file removed).
  bool commit();
  // Keeps what was written as PATH.partial (the target untouched); false with error() on failure.
  bool keep_partial();
  // Removes the temporary file; the target stays as it was.
  void discard();

  const std::string& error() const { return error_; }
  const std::string& path() const { return path_; }  // as given to open()
  std::string partial_path() const { return target_ + ".partial"; }

 private:
  bool create(bool direct, int mode);  // fd_ on target_ (direct) or on temp_, new (mode: -1 or the old file's)
  bool finish(const std::string& destination);
  bool close_file();  // writes what is gathered and closes fd_; false with error_ on failure
  void forget_temp();

  std::string path_;    // as given
  std::string target_;  // the file written: path_ with symbolic links followed
  std::string temp_;    // the temporary file beside target_; empty when writing directly
  int fd_ = -1;
  int row_ = -1;  // temp_'s row in the table of temp_files.hpp, -1 when not in it
  LineWriter buffer_;
  std::ostream out_{&buffer_};
  bool open_ = false;
  std::string error_;
};

// Why `path` cannot be an output of a command reading `inputs` (the same file as one of them, a
// folder, a link loop), or "" when it can: open() checks it first; commands that write only at
// the end of a long run check it before they start.
std::string output_problem(const std::string& path, const std::vector<std::string>& inputs);

// Writes `text` to `path` through an OutputFile; the error message, or "" on success.
std::string write_file(const std::string& path, const std::string& text, const std::vector<std::string>& inputs = {});

// Whether two names are the same existing file (device and inode); false if either does not exist.
bool same_file(const std::string& a, const std::string& b);

}  // namespace keli::util
