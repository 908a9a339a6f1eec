#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert_error.h"

namespace edgenmt::converter {
namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

void WriteFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes) {
  if (path.empty()) throw ConvertError(kExitWriteFailed, "--out", "empty output path");
  std::string temp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) {
    throw ConvertError(
        kExitWriteFailed, path,
        std::string("cannot create a temporary file next to it: ") + strerror(errno));
  }
  auto fail = [&](const char* what) {
    const std::string reason = std::string(what) + ": " + strerror(errno);
    close(fd);
    unlink(temp.c_str());
    throw ConvertError(kExitWriteFailed, path, reason);
  };
  // mkstemp creates 0600; a model file is ordinary data.
  const mode_t mask = umask(0);
  umask(mask);
  if (fchmod(fd, 0666 & ~mask) != 0) fail("chmod");
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write");
    }
    written += static_cast<size_t>(n);
  }
  if (fsync(fd) != 0) fail("fsync");
  if (close(fd) != 0) {
    const std::string reason = std::string("close: ") + strerror(errno);
    unlink(temp.c_str());
    throw ConvertError(kExitWriteFailed, path, reason);
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::string("rename: ") + strerror(errno);
    unlink(temp.c_str());
    throw ConvertError(kExitWriteFailed, path, reason);
  }
  // Persist the rename itself; best effort (some file systems refuse fsync on directories).
  const int dir_fd = open(DirectoryOf(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    fsync(dir_fd);
    close(dir_fd);
  }
}

}  // namespace edgenmt::converter
