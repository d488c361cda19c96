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
  std::string name = fmt::format(".{}.tmp-{}-{}", t.filename().string(), static_cast<long>(::getpid()), counter++);
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

bool OutputFile::open(const std::string& path, const std::vector<std::string>& inputs) {
  path_ = path;
  error_ = output_problem(path, inputs);
  if (!error_.empty()) return false;
  target_ = follow_links(path, error_);
  struct stat st {};
  bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && !S_ISREG(st.st_mode)) {
    out_.open(target_, std::ios::binary);  // a device or a pipe: nothing to replace
  } else {
    temp_ = temp_name(target_);
    int fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);  // the umask applies
    if (fd < 0) {
      error_ = fmt::format("cannot write in this folder: {}", std::strerror(errno));
      temp_.clear();
      return false;
    }
    if (exists) (void)::fchmod(fd, st.st_mode & 07777);  // the replaced file's permissions carry over
    ::close(fd);
    out_.open(temp_, std::ios::binary | std::ios::trunc);
  }
  if (!out_) {
    error_ = fmt::format("cannot write the file: {}", std::strerror(errno));
    discard();
    return false;
  }
  open_ = true;
  return true;
}

bool OutputFile::finish(const std::string& destination) {
  out_.flush();
  bool written = static_cast<bool>(out_);
  out_.close();
  open_ = false;
  if (temp_.empty()) {
    if (!written) error_ = "writing the file failed";
    return written;
  }
  if (written && std::rename(temp_.c_str(), destination.c_str()) == 0) {
    temp_.clear();
    return true;
  }
  error_ = written ? fmt::format("cannot put the file in place: {}", std::strerror(errno))
                   : "writing the file failed (is the disk full?)";
  std::remove(temp_.c_str());
  temp_.clear();
  return false;
}

bool OutputFile::commit() { return finish(target_); }

bool OutputFile::keep_partial() { return finish(partial_path()); }

void OutputFile::discard() {
  out_.close();
  open_ = false;
  if (!temp_.empty()) std::remove(temp_.c_str());
  temp_.clear();
}

std::string write_file(const std::string& path, const std::string& text, const std::vector<std::string>& inputs) {
  OutputFile f;
  if (!f.open(path, inputs)) return f.error();
  f.stream() << text;
  if (!f.commit()) return f.error();
  return "";
}

}  // namespace keli::util
