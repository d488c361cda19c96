// The native cache's folder checks and its modules' SHA-256 records (native/cache.hpp).
#include "native/cache.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

#include "native/backend.hpp"

namespace keli::native {
namespace fs = std::filesystem;

namespace {

// Reads the whole of an open file; false on a read error.
bool read_all(int fd, std::string& out) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    out.append(buf, static_cast<size_t>(n));
  }
}

// The SHA-256 recorded beside a module (its first 64 characters), or "" when there is none.
std::string read_record(const fs::path& so) {
  std::string r;
  int fd = ::open(digest_path(so).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return r;
  if (!read_all(fd, r)) r.clear();
  ::close(fd);
  return r.size() >= 64 ? r.substr(0, 64) : std::string();
}

std::string temp_suffix() {
  static std::atomic<unsigned> counter{0};
  return fmt::format(".tmp-{}-{}", static_cast<long>(::getpid()), counter++);
}

std::string mode_text(mode_t m) { return fmt::format("{:04o}", static_cast<unsigned>(m & 07777)); }

}  // namespace

std::string sha256_hex(const void* data, size_t n) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data, n, md, &len, EVP_sha256(), nullptr) != 1)
    throw Unavailable("OpenSSL's libcrypto could not compute a SHA-256");
  std::string out;
  for (unsigned i = 0; i < len; ++i) out += fmt::format("{:02x}", md[i]);
  return out;
}

fs::path trusted_folder(const std::string& dir) {
  std::error_code ec;
  const fs::path abs = fs::absolute(fs::path(dir), ec);
  if (ec) throw Unavailable(fmt::format("cannot use the cache {}: {}", dir, ec.message()));
  if (abs.has_parent_path()) fs::create_directories(abs.parent_path(), ec);
  if (::mkdir(abs.c_str(), 0700) != 0 && errno != EEXIST)
    throw Unavailable(fmt::format("cannot create the cache folder {}: {}", abs.string(), std::strerror(errno)));
  struct stat st {};
  if (::stat(abs.c_str(), &st) != 0)
    throw Unavailable(fmt::format("cannot use the cache folder {}: {}", abs.string(), std::strerror(errno)));
  if (!S_ISDIR(st.st_mode))
    throw Unavailable(fmt::format("the cache {} is not a folder; give --cache a folder of your own", abs.string()));
  if (st.st_uid != ::geteuid())
    throw Unavailable(
        fmt::format("the cache folder {} belongs to another user (uid {}): Keli loads compiled code only from a folder "
                    "of your own; give --cache another folder",
                    abs.string(), static_cast<long>(st.st_uid)));
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    throw Unavailable(
        fmt::format("the cache folder {} may be written by other users (mode {}): Keli loads compiled code only from a "
                    "private folder; make it private (chmod 700 {}) or give --cache another folder",
                    abs.string(), mode_text(st.st_mode), abs.string()));
  return abs;
}

std::string write_new_file(const fs::path& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return std::strerror(errno);
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string why = std::strerror(n < 0 ? errno : ENOSPC);
      ::close(fd);
      ::unlink(path.c_str());
      return why;
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(path.c_str());
    return why;
  }
  return "";
}

std::string unwritable(const fs::path& dir) {
  if (::access(dir.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
  return "";
}

fs::path digest_path(const fs::path& so) { return fs::path(so.string() + ".sha256"); }

VerifiedModule::VerifiedModule(const fs::path& so, std::string& why) {
  int fd = ::open(so.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    why = errno == ENOENT ? "not built yet" : std::strerror(errno);
    return;
  }
  struct stat st {};
  std::string bytes;
  const std::string recorded = read_record(so);
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
    why = "not a private file of this user";
  else if (!read_all(fd, bytes))
    why = std::strerror(errno);
  else if (recorded.empty())
    why = "no SHA-256 recorded for it";
  else if (recorded != sha256_hex(bytes))
    why = "its SHA-256 is not the one recorded when it was built";
  else {
    fd_ = fd;  // the bytes hashed are the bytes recorded when it was built
    return;
  }
  ::close(fd);
}

VerifiedModule::~VerifiedModule() {
  if (fd_ >= 0) ::close(fd_);
}

std::string install_module(const fs::path& built, const fs::path& so) {
  std::string bytes;
  int fd = ::open(built.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 || !read_all(fd, bytes)) {
    std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return fmt::format("cannot read the module just built, {}: {}", built.string(), why);
  }
  ::close(fd);
  // The record first: a process that finds the module finds its record too (a record from a
  // racing build of the same program at worst, which then fails the check and is built again).
  const fs::path record = digest_path(so), temp = fs::path(record.string() + temp_suffix());
  if (std::string why = write_new_file(temp, sha256_hex(bytes) + "\n"); !why.empty()) return why;
  std::error_code ec;
  fs::rename(temp, record, ec);
  if (ec) {
    fs::remove(temp, ec);
    return ec.message();
  }
  fs::rename(built, so, ec);
  if (ec) return fmt::format("cannot write {}: {}", so.string(), ec.message());
  return "";
}

}  // namespace keli::native
