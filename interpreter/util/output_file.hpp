// Writing an output file safely: every file a command writes goes to a temporary file in the
// target's folder and is renamed into place only when complete, so a failed command never leaves
// a half-written or truncated file where a good one was (docs/cli.md, "Output files").
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace keli::util {

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

  // Opens the temporary file for `path`; false with error() when it cannot, or when `path` is the
  // same file as one of `inputs` (names that do not exist are ignored).
  bool open(const std::string& path, const std::vector<std::string>& inputs = {});
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
  bool finish(const std::string& destination);

  std::string path_;    // as given
  std::string target_;  // the file written: path_ with symbolic links followed
  std::string temp_;    // the temporary file beside target_; empty when writing directly
  std::ofstream out_;
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
