// The native cache's folder and the modules in it. Keli loads compiled code only from a folder
// that is this user's own and that no one else may write to, and only a module whose bytes hash
// to the SHA-256 recorded beside it when it was built: a damaged or foreign module is never
// loaded (docs/native.md, "The cache").
#pragma once

#include <filesystem>
#include <string>

namespace keli::native {

// SHA-256 (OpenSSL's libcrypto) of `n` bytes, as 64 lowercase hex digits.
std::string sha256_hex(const void* data, size_t n);
inline std::string sha256_hex(const std::string& text) { return sha256_hex(text.data(), text.size()); }

// Makes the cache folder (private, 0700, when Keli creates it) and checks that it may hold code
// this process loads: a folder, owned by the effective user, writable by no group or other
// user. Returns it as an absolute path (so no path given to the compiler starts with '-');
// throws Unavailable saying what is wrong and how to put it right.
std::filesystem::path trusted_folder(const std::string& dir);

// Writes a new private file (0600) whole; "" or the system's reason (the file then removed).
std::string write_new_file(const std::filesystem::path& path, const std::string& text);

// Why the folder cannot be written ("" when it can): a read-only file system, no permission.
std::string unwritable(const std::filesystem::path& dir);

// A module found in the cache and checked: an open descriptor on the very file whose bytes were
// hashed (loaded through /proc/self/fd, so a file swapped after the check is not the one
// loaded), or -1 with `why` when there is none, or it is damaged or foreign.
class VerifiedModule {
 public:
  VerifiedModule(const std::filesystem::path& so, std::string& why);
  ~VerifiedModule();
  VerifiedModule(const VerifiedModule&) = delete;
  VerifiedModule& operator=(const VerifiedModule&) = delete;
  bool ok() const { return fd_ >= 0; }
  // The descriptor, for the caller to keep and close: the module is loaded through it.
  int take() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

// The file beside a module holding its recorded SHA-256.
std::filesystem::path digest_path(const std::filesystem::path& so);

// Puts a freshly built module `built` in place as `so`: records its SHA-256 beside it (written
// to a temporary file, then renamed), then renames the module. Returns "" or the system's
// reason it failed (the temporary files then removed).
std::string install_module(const std::filesystem::path& built, const std::filesystem::path& so);

}  // namespace keli::native
