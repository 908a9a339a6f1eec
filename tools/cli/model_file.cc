#include "model_file.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace edgenmt::cli {

MappedFile::~MappedFile() {
  if (mapped_) munmap(data_, size_);
}

bool MappedFile::Open(const std::string& path, std::string* error) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    *error = path + ": " + std::strerror(errno);
    close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = path + ": not a regular file";
    close(fd);
    return false;
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ == 0) {
    // Nothing to map; the runtime reports an empty buffer as a malformed model.
    static const unsigned char kEmpty alignas(64)[64] = {0};
    data_ = const_cast<unsigned char*>(kEmpty);
    close(fd);
    return true;
  }
  void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  const int mmap_errno = errno;
  close(fd);
  if (p == MAP_FAILED) {
    *error = path + ": mmap failed: " + std::strerror(mmap_errno);
    return false;
  }
  data_ = p;
  mapped_ = true;
  return true;
}

}  // namespace edgenmt::cli
