// Writes a file so that readers see either the old file or the complete new one, never a part.
#ifndef EDGENMT_CONVERTER_ATOMIC_FILE_H_
#define EDGENMT_CONVERTER_ATOMIC_FILE_H_

#include <stdint.h>

#include <string>
#include <vector>

namespace edgenmt::converter {

// Writes `bytes` to "<path>.tmp.XXXXXX" in the same directory, fsyncs it, renames it over
// `path` and fsyncs the directory. On any failure the temporary file is removed and
// ConvertError(kExitWriteFailed, path) is thrown; `path` is then untouched.
void WriteFileAtomically(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace edgenmt::converter

#endif  // EDGENMT_CONVERTER_ATOMIC_FILE_H_
