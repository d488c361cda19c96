// Output files written to a temporary file beside the target and renamed into place (see
// output_file.hpp); the target is found by following symbolic links, a bounded number of them.
#include "util/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "lang/limits.hpp"
#include "util/temp_files.hpp"

namespace keli::util {
namespace fs = std::filesystem;

namespace {

// `path` with every symbolic link in its last component followed (the link's own folder is the
// base of a relative link); "" with `error` for a loop or an unreadable link.
std::string follow_links(const std::string& path, std::string& error) {
  fs::path p = path;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ELOOP) break;
      return p.string();  // does not exist yet (or its folder does not: open says so)
    }
    if (!S_ISLNK(st.st_mode)) return p.string();
    if (hops == lang::kMaxSymlinkHops) break;
    std::error_code ec;
    fs::path next = fs::read_symlink(p, ec);
    if (ec) {
      error = fmt::format("cannot read the symbolic link: {}", ec.message());
      return "";
    }
    p = next.is_absolute() ? next : p.parent_path() / next;
  }
  error = fmt::format("too many levels of symbolic links (a loop?): more than {} to follow", lang::kMaxSymlinkHops);
  return "";
}

std::string temp_name(const std::string& target) {
  static std::atomic<unsigned> counter{0};
  fs::path t = target;
  // A name near the system's longest (255 bytes) is cut, so that its temporary file's name fits.
  constexpr size_t kNameKept = 200;
  std::string name = fmt::format(".{}.tmp-{}-{}", t.filename().string().substr(0, kNameKept),
                                 static_cast<long>(::getpid()), counter++);
  return (t.parent_path() / name).string();
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

OutputFile::~OutputFile() {
  if (open_) discard();
}

std::string output_problem(const std::string& path, const std::vector<std::string>& inputs) {
  std::string error;
  std::string target = follow_links(path, error);
  if (target.empty()) return error;
  for (const auto& in : inputs)
    if (same_file(path, in))
      return in == path
                 ? "this file is also an input of the command: it would be overwritten"
                 : fmt::format("this is the same file as '{}', an input of the command: it would be overwritten", in);
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0 && errno == ELOOP)
    return "too many levels of symbolic links (a loop?) in the folders of this path";
  if (S_ISDIR(st.st_mode)) return "this is a folder, not a file";
  // Renaming would replace a file its owner made read-only; writing it in place would not.
  if (S_ISREG(st.st_mode) && ::access(target.c_str(), W_OK) != 0) return "the file is read-only";
  return "";
}

bool OutputFile::open(const std::string& path, const std::vector<std::string>& inputs, OnStop on_stop) {
  path_ = path;
  error_ = output_problem(path, inputs);
  if (!error_.empty()) return false;
  target_ = follow_links(path, error_);
  struct stat st {};
  bool exists = ::stat(target_.c_str(), &st) == 0;
  // A device or a pipe is written directly: there is nothing to replace.
  const bool direct = exists && !S_ISREG(st.st_mode);
  if (!direct) {
    temp_ = temp_name(target_);
    // In the table before it exists, so that no signal can come between and leave it behind.
    row_ = remember_temp_file(temp_, on_stop == OnStop::KeepPartial ? partial_path() : "");
  }
  if (!create(direct, exists ? static_cast<int>(st.st_mode & 07777) : -1)) return false;
  buffer_.start(fd_);
  out_.clear();
  open_ = true;
  return true;
}

bool OutputFile::create(bool direct, int mode) {
  if (direct) {
    fd_ = ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd_ < 0) error_ = fmt::format("cannot write the file: {}", std::strerror(errno));
    return fd_ >= 0;
  }
  fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies
  if (fd_ < 0) {
    error_ = fmt::format("cannot write in this folder: {}", std::strerror(errno));
    forget_temp();
    return false;
  }
  if (mode >= 0) (void)::fchmod(fd_, static_cast<mode_t>(mode));  // the replaced file's permissions carry over
  return true;
}

bool OutputFile::close_file() {
  bool written = static_cast<bool>(out_) && buffer_.write_all();
  if (!written)
    error_ = fmt::format("writing the file failed: {}", std::strerror(buffer_.error() ? buffer_.error() : EIO));
  buffer_.start(-1);
  // A file system that writes late (NFS, a full quota) reports it on close.
  if (fd_ >= 0 && ::close(fd_) != 0 && written) {
    error_ = fmt::format("writing the file failed: {}", std::strerror(errno));
    written = false;
  }
  fd_ = -1;
  open_ = false;
  return written;
}

void OutputFile::forget_temp() {
  forget_temp_file(row_);
  row_ = -1;
  temp_.clear();
}

bool OutputFile::finish(const std::string& destination) {
  bool written = close_file();
  if (temp_.empty()) return written;
  if (written && std::rename(temp_.c_str(), destination.c_str()) == 0) {
    forget_temp();
    return true;
  }
  if (written) error_ = fmt::format("cannot put the file in place: {}", std::strerror(errno));
  std::remove(temp_.c_str());
  forget_temp();
  return false;
}

bool OutputFile::commit() { return finish(target_); }

bool OutputFile::keep_partial() { return finish(partial_path()); }

void OutputFile::discard() {
  buffer_.start(-1);  // what was gathered is dropped, not written
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  open_ = false;
  if (!temp_.empty()) std::remove(temp_.c_str());
  forget_temp();
}

void LineWriter::start(int fd) {
  fd_ = fd;
  error_ = 0;
  pending_.clear();
  lines_end_ = 0;
  due_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(lang::kOutputFlushMs);
}

LineWriter::int_type LineWriter::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  if (error_) return traits_type::eof();
  pending_.push_back(traits_type::to_char_type(c));
  if (c == '\n') lines_end_ = pending_.size();
  gathered(c == '\n');
  return error_ ? traits_type::eof() : c;
}

std::streamsize LineWriter::xsputn(const char* s, std::streamsize n) {
  if (error_) return 0;
  pending_.append(s, static_cast<size_t>(n));
  // Only the new piece is searched for its last line break: a long line costs no rescans.
  if (const void* nl = n > 0 ? ::memrchr(s, '\n', static_cast<size_t>(n)) : nullptr)
    lines_end_ = pending_.size() - static_cast<size_t>(n) + static_cast<size_t>(static_cast<const char*>(nl) - s) + 1;
  gathered(n > 0 && s[n - 1] == '\n');
  return error_ ? 0 : n;
}

void LineWriter::gathered(bool line_end) {
  if (lines_end_ == 0) return;  // no whole line yet
  const bool full = pending_.size() >= static_cast<size_t>(lang::kOutputChunkBytes);
  if (full || (line_end && std::chrono::steady_clock::now() >= due_)) write_out(lines_end_);
}

bool LineWriter::write_all() { return write_out(pending_.size()); }

bool LineWriter::write_out(size_t n) {
  if (error_) return false;
  size_t done = fd_ < 0 ? n : 0;  // nowhere to write: dropped
  while (done < n) {
    ssize_t w = ::write(fd_, pending_.data() + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      error_ = w < 0 ? errno : EIO;
      return false;
    }
    done += static_cast<size_t>(w);
  }
  pending_.erase(0, n);
  lines_end_ = lines_end_ > n ? lines_end_ - n : 0;
  due_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(lang::kOutputFlushMs);
  return true;
}

std::string write_file(const std::string& path, const std::string& text, const std::vector<std::string>& inputs) {
  OutputFile f;
  if (!f.open(path, inputs)) return f.error();
  f.stream() << text;
  if (!f.commit()) return f.error();
  return "";
}

}  // namespace keli::util
