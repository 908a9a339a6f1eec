// A main() for the fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput once per file
// (arguments are files or directories, read non-recursively), so any build, the ASan one
// included, replays the committed seeds and regression inputs. Exit code 0 when every input ran
// (a finding aborts the process); 1 when an argument cannot be read or nothing was run.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

bool ReadFile(const std::string& path, std::vector<uint8_t>* bytes) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  bytes->clear();
  uint8_t chunk[65536];
  size_t n = 0;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) bytes->insert(bytes->end(), chunk, chunk + n);
  const bool ok = ferror(f) == 0;
  fclose(f);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    struct stat st {};
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: %s: cannot stat\n", argv[i]);
      return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
      files.push_back(argv[i]);
      continue;
    }
    std::vector<std::string> names;
    if (DIR* dir = opendir(argv[i])) {
      while (const dirent* e = readdir(dir)) {
        if (e->d_name[0] != '.') names.push_back(std::string(argv[i]) + "/" + e->d_name);
      }
      closedir(dir);
    }
    std::sort(names.begin(), names.end());
    files.insert(files.end(), names.begin(), names.end());
  }
  std::vector<uint8_t> bytes;
  int ran = 0;
  for (const std::string& path : files) {
    if (!ReadFile(path, &bytes)) {
      fprintf(stderr, "replay: %s: cannot read\n", path.c_str());
      return 1;
    }
    // An exact-size heap copy, so reads past the end are caught even where data() is null.
    std::vector<uint8_t> input(bytes);
    LLVMFuzzerTestOneInput(input.data(), input.size());
    ++ran;
  }
  printf("replay: %d input(s) ran without a finding\n", ran);
  return ran > 0 ? 0 : 1;
}
