"""edgenmt.Phonemizer: English text -> phonemes (the C API edgenmt/phonemizer_c.h over ctypes)."""
import ctypes
from typing import List, Optional, Sequence

from . import _capi

PHONEME_FORMATS = {"arpabet": 0, "ipa": 1, "json": 2}
WRITE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ctypes.c_char), ctypes.c_size_t)
WARN_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p)
LEXICON_ERROR_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_char_p)


class PhonemizerLimits(ctypes.Structure):
    _fields_ = [("use_lexicon", ctypes.c_int32), ("user_lexicon_max_words", ctypes.c_uint32),
                ("user_lexicon_max_bytes", ctypes.c_uint32), ("backend", ctypes.c_int32)]


def _declare(lib):
    if getattr(lib, "_phonemizer_declared", False):
        return lib
    P, i32, size_t = ctypes.c_void_p, ctypes.c_int32, ctypes.c_size_t
    signatures = {
        "enmt_phonemizer_storage_bytes": (size_t, []),
        "enmt_phonemizer_limits_default": (None, [ctypes.POINTER(PhonemizerLimits)]),
        "enmt_phonemizer_required_arena_bytes": (i32, [P, size_t, ctypes.POINTER(PhonemizerLimits),
                                                       ctypes.POINTER(size_t), ctypes.c_char_p,
                                                       size_t]),
        "enmt_phonemizer_init": (i32, [P, size_t, P, size_t, ctypes.POINTER(PhonemizerLimits), P,
                                       size_t, ctypes.POINTER(P)]),
        "enmt_phonemizer_load_user_lexicon": (i32, [P, ctypes.c_char_p, size_t, LEXICON_ERROR_FN,
                                                    P]),
        "enmt_phonemize": (i32, [P, ctypes.c_char_p, size_t, i32, WRITE_FN, WARN_FN, P]),
        "enmt_phonemizer_error": (ctypes.c_char_p, [P]),
        "enmt_phonemizer_arena_bytes_used": (size_t, [P]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    lib._phonemizer_declared = True
    return lib


class Phonemizer:
    """Reads English text aloud as phonemes (docs/PHONEMIZER.md).

    Phonemizer("build/models/phonemizer-en.enmt").phonemize(["Dr. Smith paid $3.50."],
    format="ipa") -> one string per line. The file is read into one aligned buffer and the arena
    is sized exactly; warnings about skipped text are kept in `warnings` after each call.
    """

    def __init__(self, path, lexicon: bool = True, user_lexicon: Optional[str] = None,
                 backend: Optional[str] = None):
        from . import _library, Error, _status_name
        self._lib = _declare(_library())
        with open(path, "rb") as f:
            data = f.read()
        self._file, file_address = _capi.aligned_buffer(len(data), _capi.MODEL_ALIGNMENT)
        ctypes.memmove(file_address, data, len(data))
        limits = PhonemizerLimits()
        self._lib.enmt_phonemizer_limits_default(ctypes.byref(limits))
        limits.use_lexicon = 1 if lexicon else 0
        if backend is not None:
            limits.backend = _capi.BACKENDS[backend]
        lexicon_bytes = None
        if user_lexicon is not None:
            with open(user_lexicon, "rb") as f:
                lexicon_bytes = f.read()
            limits.user_lexicon_max_words = lexicon_bytes.count(b"\n") + 1
            limits.user_lexicon_max_bytes = len(lexicon_bytes) + 1
        need = ctypes.c_size_t()
        detail = ctypes.create_string_buffer(256)
        status = self._lib.enmt_phonemizer_required_arena_bytes(
            file_address, len(data), ctypes.byref(limits), ctypes.byref(need), detail, 256)
        if status != _capi.ENMT_OK:
            raise Error(_status_name(status), detail.value.decode(errors="replace"), path)
        storage_bytes = self._lib.enmt_phonemizer_storage_bytes()
        self._storage, storage_address = _capi.aligned_buffer(storage_bytes, 64)
        self._arena, arena_address = _capi.aligned_buffer(need.value, _capi.ARENA_ALIGNMENT)
        handle = ctypes.c_void_p()
        status = self._lib.enmt_phonemizer_init(storage_address, storage_bytes, file_address,
                                                len(data), ctypes.byref(limits), arena_address,
                                                need.value, ctypes.byref(handle))
        if status != _capi.ENMT_OK:
            message = self._lib.enmt_phonemizer_error(handle) if handle else b""
            raise Error(_status_name(status), (message or b"").decode(errors="replace"), path)
        self._handle = handle
        self.arena_bytes = need.value
        self.warnings: List[str] = []
        if lexicon_bytes is not None:
            errors = []
            callback = LEXICON_ERROR_FN(
                lambda _user, line, message: errors.append(f"{user_lexicon}:{line}: "
                                                           f"{message.decode()}"))
            status = self._lib.enmt_phonemizer_load_user_lexicon(
                handle, lexicon_bytes, len(lexicon_bytes), callback, None)
            if status != _capi.ENMT_OK:
                detail = "; ".join(errors) or self._lib.enmt_phonemizer_error(handle).decode()
                raise Error(_status_name(status), detail, user_lexicon)

    def phonemize(self, lines: Sequence[str], format: str = "arpabet") -> List[str]:
        """One output string per input line (without the newline)."""
        from . import Error, _status_name
        if format not in PHONEME_FORMATS:
            raise ValueError(f"format must be one of {sorted(PHONEME_FORMATS)}")
        self.warnings = []
        out = []
        chunks: List[bytes] = []
        write = WRITE_FN(lambda _user, data, n: chunks.append(ctypes.string_at(data, n)))
        warn = WARN_FN(lambda _user, message: self.warnings.append(message.decode()))
        for line in lines:
            data = line.encode("utf-8", errors="surrogateescape")
            chunks.clear()
            status = self._lib.enmt_phonemize(self._handle, data, len(data),
                                              PHONEME_FORMATS[format], write, warn, None)
            if status != _capi.ENMT_OK:
                raise Error(_status_name(status),
                            self._lib.enmt_phonemizer_error(self._handle).decode(), line)
            out.append(b"".join(chunks).decode("utf-8").rstrip("\n"))
        return out
