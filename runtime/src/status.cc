#include "edgenmt/status.h"

namespace edgenmt {

const char* StatusName(Status status) {
  switch (status) {
    case Status::kOk: return "Ok";
    case Status::kInvalidArgument: return "InvalidArgument";
    case Status::kNotInitialized: return "NotInitialized";
    case Status::kUnsupported: return "Unsupported";
    case Status::kModelMalformed: return "ModelMalformed";
    case Status::kModelVersionUnsupported: return "ModelVersionUnsupported";
    case Status::kModelTensorMissing: return "ModelTensorMissing";
    case Status::kModelTensorInvalid: return "ModelTensorInvalid";
    case Status::kModelConfigInvalid: return "ModelConfigInvalid";
    case Status::kModelVocabularyInvalid: return "ModelVocabularyInvalid";
    case Status::kSourceEmpty: return "SourceEmpty";
    case Status::kSourceTooLong: return "SourceTooLong";
    case Status::kSourceInvalidUtf8: return "SourceInvalidUtf8";
    case Status::kSourceTokenOutOfRange: return "SourceTokenOutOfRange";
    case Status::kUserLexiconInvalid: return "UserLexiconInvalid";
    case Status::kArenaTooSmall: return "ArenaTooSmall";
    case Status::kLimitExceeded: return "LimitExceeded";
    case Status::kInternal: return "Internal";
  }
  return "Unknown";
}

}  // namespace edgenmt
