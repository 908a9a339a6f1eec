"""ctypes declarations of the C API (runtime/include/edgenmt/edgenmt.h) and the library lookup."""
import ctypes
import ctypes.util
import os

ENMT_OK = 0
ENMT_UNSUPPORTED = 12
ENMT_ARENA_TOO_SMALL = 40
BACKENDS = {"reference": 0, "xnnpack": 1, "simd": 2, "auto": 3}
# Model buffers must start on a 64-byte boundary, arenas and object storage on 16.
MODEL_ALIGNMENT = 64
ARENA_ALIGNMENT = 16


class Limits(ctypes.Structure):
    _fields_ = [("max_src_len", ctypes.c_int32), ("max_beam", ctypes.c_int32),
                ("max_nbest", ctypes.c_int32), ("max_tgt_len", ctypes.c_int32),
                ("backend", ctypes.c_int32), ("attention", ctypes.c_int32),
                ("max_batch", ctypes.c_int32)]


class Options(ctypes.Structure):
    _fields_ = [("beam", ctypes.c_int32), ("nbest", ctypes.c_int32), ("alpha", ctypes.c_float),
                ("beta", ctypes.c_float), ("min_len", ctypes.c_int32), ("max_len", ctypes.c_int32),
                ("max_len_ratio", ctypes.c_float), ("return_attention", ctypes.c_int32)]


class HypothesisStruct(ctypes.Structure):
    _fields_ = [("ids", ctypes.POINTER(ctypes.c_int32)), ("length", ctypes.c_int32),
                ("text", ctypes.c_char_p), ("text_length", ctypes.c_size_t),
                ("score", ctypes.c_float), ("log_prob", ctypes.c_float),
                ("ended_with_eos", ctypes.c_int32), ("attention", ctypes.POINTER(ctypes.c_float)),
                ("attention_steps", ctypes.c_int32), ("src_len", ctypes.c_int32)]


class BatchResult(ctypes.Structure):
    _fields_ = [("num_hypotheses", ctypes.c_int32), ("src_ids", ctypes.POINTER(ctypes.c_int32)),
                ("src_len", ctypes.c_int32), ("src_unknown", ctypes.c_int32),
                ("steps", ctypes.c_int32), ("internal", ctypes.c_void_p)]


# void (*)(void* user, int32_t index, enmt_status status, const enmt_batch_result*, const char*)
BATCH_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                                  ctypes.POINTER(BatchResult), ctypes.c_char_p)


def _library_path():
    """EDGENMT_LIBRARY, else the library this package was built or installed with, else the
    system's libedgenmt."""
    path = os.environ.get("EDGENMT_LIBRARY")
    if path:
        return path
    try:
        from . import _library_location  # written by CMake into the build tree and the install
        return os.path.normpath(os.path.join(os.path.dirname(__file__), _library_location.PATH))
    except ImportError:
        pass
    found = ctypes.util.find_library("edgenmt")
    if found is None:
        raise OSError("libedgenmt.so not found: build it (cmake --build), install it "
                      "(cmake --install) or set EDGENMT_LIBRARY")
    return found


def load():
    lib = ctypes.CDLL(_library_path())
    P, i32, size_t = ctypes.c_void_p, ctypes.c_int32, ctypes.c_size_t
    signatures = {
        "enmt_status_name": (ctypes.c_char_p, [i32]),
        "enmt_model_storage_bytes": (size_t, []),
        "enmt_model_load": (i32, [P, size_t, P, size_t, ctypes.POINTER(P)]),
        "enmt_model_error": (ctypes.c_char_p, [P]),
        "enmt_limits_default": (None, [P, ctypes.POINTER(Limits)]),
        "enmt_options_default": (None, [P, ctypes.POINTER(Options)]),
        "enmt_required_arena_bytes": (i32, [P, ctypes.POINTER(Limits), ctypes.POINTER(size_t)]),
        "enmt_translator_init": (i32, [P, P, size_t, ctypes.POINTER(Limits), ctypes.POINTER(P)]),
        "enmt_translator_error": (ctypes.c_char_p, [P]),
        "enmt_translator_arena_bytes_used": (size_t, [P]),
        "enmt_translate": (i32, [P, ctypes.c_char_p, size_t, ctypes.POINTER(Options),
                                 ctypes.POINTER(i32)]),
        "enmt_get_hypothesis": (i32, [P, i32, ctypes.POINTER(HypothesisStruct)]),
        "enmt_get_source": (i32, [P, ctypes.POINTER(ctypes.POINTER(i32)), ctypes.POINTER(i32),
                                  ctypes.POINTER(i32)]),
        "enmt_model_token": (i32, [P, i32, i32, ctypes.POINTER(ctypes.c_char_p),
                                   ctypes.POINTER(size_t)]),
        "enmt_model_has_attention": (i32, [P]),
        "enmt_translate_batch": (i32, [P, ctypes.POINTER(ctypes.c_char_p),
                                       ctypes.POINTER(size_t), i32, ctypes.POINTER(Options),
                                       BATCH_CALLBACK, P]),
        "enmt_batch_get_hypothesis": (i32, [ctypes.POINTER(BatchResult), i32,
                                            ctypes.POINTER(HypothesisStruct)]),
        "enmt_default_backend": (i32, []),
        "enmt_backend_name": (ctypes.c_char_p, [i32]),
        "enmt_backend_variant": (ctypes.c_char_p, [i32]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


def aligned_buffer(size, alignment):
    """A zeroed ctypes buffer of `size` bytes and the address of its first aligned byte; keep the
    buffer alive as long as the address is used."""
    buffer = (ctypes.c_uint8 * (size + alignment))()
    address = ctypes.addressof(buffer)
    return buffer, address + (-address) % alignment
