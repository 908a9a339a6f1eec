"""edgenmt from Python: translate with an .enmt model through the runtime's C API (ctypes).

    import edgenmt
    translator = edgenmt.Translator("build/models/g2p-en.f32.enmt", beam=5)
    translator.translate(["hello", "world"])        # ['HH AH L OW', 'W ER L D']
    fast = edgenmt.Translator("build/models/g2p-en.int8.enmt", beam=1, batch=32, threads=2)
    fast.translate(words)                           # same outputs, in input order, much faster
    for hyp in translator.translate_nbest(["hello"], nbest=3, attention=True)[0]:
        hyp.text, hyp.score, hyp.attention          # attention: one row per output step

The runtime is the same library the CLI links (libedgenmt.so), so outputs are the CLI's
(`edgenmt translate -m FILE --beam K`) exactly. No dependency beyond the standard library.
"""
import ctypes
import dataclasses
import threading
from typing import List, Optional, Sequence

from . import _capi

__all__ = ["Error", "Hypothesis", "Phonemizer", "Translator"]


class Error(RuntimeError):
    """A runtime status other than Ok: `.status` is its StatusName (docs/ERRORS.md)."""

    def __init__(self, status, detail, where=None):
        self.status = status
        self.detail = detail
        super().__init__(f"{where + ': ' if where else ''}{status}: {detail}")


@dataclasses.dataclass
class Hypothesis:
    text: str                   # output tokens joined by one space
    ids: List[int]              # target ids, without <s> and </s>
    score: float                # log_prob / length penalty + coverage penalty
    log_prob: float             # natural log-probability, </s> included when emitted
    ended_with_eos: bool        # False: stopped at the maximum length
    source_tokens: List[str]    # the source as tokenized (attention columns)
    # [steps][len(source_tokens)] attention weights (one row per output token, plus the </s>
    # step when ended_with_eos), or None when not asked for.
    attention: Optional[List[List[float]]] = None


_lib = None


def _library():
    global _lib
    if _lib is None:
        _lib = _capi.load()
    return _lib


def _status_name(status):
    return _library().enmt_status_name(status).decode()


class Translator:
    """One model file and one translator session over an arena sized for the given options.

    beam, nbest: as `edgenmt translate --beam/--nbest`; alpha, beta, min_len, max_len,
    max_len_ratio: None keeps the model's stored decoding defaults (as the CLI does).
    attention: reserve attention history so translate_nbest(attention=True) works (None: when
    the model has attention). backend: None (the default: "simd" where the CPU has it, else
    "reference"), "reference", "simd", "auto" or "xnnpack" (each only where the build has it);
    the backend and what it runs on this CPU are in .backend, .backend_variant and repr().
    batch: sources decoded together per session (enmt_translate_batch; the arena grows with
    it); every call goes through the batch API, so batch=1 is today's one-at-a-time cost.
    threads: sessions (each its own arena, all over the one model) that translate contiguous
    parts of a list in Python threads at once (the C calls release the GIL); results are in
    input order whatever batch and threads are.
    """

    def __init__(self, model_path, beam=5, nbest=1, alpha=None, beta=None, min_len=None,
                 max_len=None, max_len_ratio=None, attention=None, backend=None, batch=1,
                 threads=1):
        for name, value in (("batch", batch), ("threads", threads)):
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        lib = _library()
        with open(model_path, "rb") as f:
            data = f.read()
        # The model stays in this aligned buffer for the translator's whole life (never copied
        # again by the runtime).
        self._model_buffer, model_address = _capi.aligned_buffer(len(data), _capi.MODEL_ALIGNMENT)
        ctypes.memmove(model_address, data, len(data))
        storage_bytes = lib.enmt_model_storage_bytes()
        self._model_storage, storage_address = _capi.aligned_buffer(storage_bytes,
                                                                    _capi.ARENA_ALIGNMENT)
        self._model = ctypes.c_void_p()
        status = lib.enmt_model_load(storage_address, storage_bytes, model_address, len(data),
                                     ctypes.byref(self._model))
        if status != _capi.ENMT_OK:
            raise Error(_status_name(status), lib.enmt_model_error(self._model).decode(), model_path)

        self._options = _capi.Options()
        lib.enmt_options_default(self._model, ctypes.byref(self._options))
        overrides = {"beam": beam, "nbest": nbest, "alpha": alpha, "beta": beta,
                     "min_len": min_len, "max_len": max_len, "max_len_ratio": max_len_ratio}
        for name, value in overrides.items():
            if value is not None:
                setattr(self._options, name, value)
        if backend is not None and backend not in _capi.BACKENDS:
            raise ValueError(f"backend must be one of {sorted(_capi.BACKENDS)}, got {backend!r}")
        has_attention = bool(lib.enmt_model_has_attention(self._model))
        if attention is None:
            attention = has_attention

        limits = _capi.Limits()
        lib.enmt_limits_default(self._model, ctypes.byref(limits))
        limits.max_beam = self._options.beam
        limits.max_nbest = self._options.nbest
        limits.max_tgt_len = self._options.max_len
        if backend is not None:
            limits.backend = _capi.BACKENDS[backend]  # else enmt_limits_default's choice
        limits.attention = 1 if attention else 0
        limits.max_batch = batch
        self._attention = bool(attention)
        arena_bytes = ctypes.c_size_t()
        status = lib.enmt_required_arena_bytes(self._model, ctypes.byref(limits),
                                               ctypes.byref(arena_bytes))
        if status != _capi.ENMT_OK:
            raise Error(_status_name(status), "cannot plan a session for these options", model_path)
        # One session (arena + translator) per thread, all over the one model.
        self._arenas, self._translators = [], []
        for _ in range(threads):
            arena, arena_address = _capi.aligned_buffer(arena_bytes.value, _capi.ARENA_ALIGNMENT)
            translator = ctypes.c_void_p()
            status = lib.enmt_translator_init(self._model, arena_address, arena_bytes.value,
                                              ctypes.byref(limits), ctypes.byref(translator))
            if status != _capi.ENMT_OK:
                # A failed init leaves the translator object at the arena's start (unless the
                # arena could not even hold it): its error detail says why.
                detail = (lib.enmt_translator_error(arena_address).decode()
                          if status != _capi.ENMT_ARENA_TOO_SMALL else "arena too small")
                raise Error(_status_name(status), detail, model_path)
            self._arenas.append(arena)
            self._translators.append(translator)
        self.arena_bytes = lib.enmt_translator_arena_bytes_used(self._translators[0])
        self.batch = batch
        self.threads = threads
        self.backend = lib.enmt_backend_name(limits.backend).decode()
        self.backend_variant = lib.enmt_backend_variant(limits.backend).decode()
        self._path = model_path
        self.beam = self._options.beam
        self.nbest = self._options.nbest

    def __repr__(self):
        return (f"edgenmt.Translator({self._path!r}, beam={self.beam}, nbest={self.nbest}, "
                f"backend={self.backend!r} ({self.backend_variant}), "
                f"batch={self.batch}, threads={self.threads}, arena_bytes={self.arena_bytes})")

    def translate(self, sources: Sequence[str], errors="raise") -> List[str]:
        """The best output of each source, in input order. A bad source (empty, invalid UTF-8,
        too long) fails alone: errors="raise" raises Error for the first bad one (in input
        order) after the batch ran; errors="empty" gives "" for it, like the CLI's empty line."""
        if errors not in ("raise", "empty"):
            raise ValueError(f'errors must be "raise" or "empty", got {errors!r}')
        outputs = []
        for result in self._run_all(sources, 1, False):
            if isinstance(result, Error):
                if errors != "empty":
                    raise result
                outputs.append("")
            else:
                outputs.append(result[0].text)
        return outputs

    def translate_nbest(self, sources: Sequence[str], nbest=None, attention=False
                        ) -> List[List[Hypothesis]]:
        """The n-best hypotheses (best first, at most nbest <= the constructor's nbest; default
        all of them) of each source, with scores and, if asked, attention. Raises Error for the
        first bad source (in input order)."""
        nbest = self.nbest if nbest is None else nbest
        if not 1 <= nbest <= self.nbest:
            raise ValueError(f"nbest must be in [1, {self.nbest}] (the constructor's nbest)")
        if attention and not self._attention:
            raise ValueError("attention needs a model with attention and Translator(attention=True)")
        results = self._run_all(sources, nbest, attention)
        for result in results:
            if isinstance(result, Error):
                raise result
        return results

    def _run_all(self, sources, nbest, attention):
        """Each source's hypotheses (or its Error), in input order: contiguous parts of the list
        on the sessions, one Python thread per session beyond the first."""
        sources = list(sources)
        results = [None] * len(sources)
        parts = min(self.threads, len(sources))
        if parts <= 1:
            self._run_batch(0, sources, 0, results, nbest, attention)
            return results
        bounds = [len(sources) * k // parts for k in range(parts + 1)]
        failures = []

        def work(k):
            try:
                self._run_batch(k, sources[bounds[k]:bounds[k + 1]], bounds[k], results, nbest,
                                attention)
            except BaseException as e:  # re-raised in the calling thread
                failures.append(e)

        workers = [threading.Thread(target=work, args=(k,)) for k in range(1, parts)]
        for w in workers:
            w.start()
        work(0)
        for w in workers:
            w.join()
        if failures:
            raise failures[0]
        return results

    def _run_batch(self, session, sources, offset, results, nbest, attention):
        """enmt_translate_batch over sources on session `session`; results[offset + i] gets
        source i's hypotheses or Error."""
        lib = _library()
        data = [source.encode("utf-8", "surrogateescape") for source in sources]
        count = len(data)
        pointers = (ctypes.c_char_p * max(count, 1))(*data)
        lengths = (ctypes.c_size_t * max(count, 1))(*[len(d) for d in data])
        options = _capi.Options.from_buffer_copy(self._options)
        options.return_attention = 1 if attention else 0
        problems = []

        def on_result(_user, index, status, result, detail):
            # Runs inside the C call: everything `result` points to is valid only until return.
            try:
                if status != _capi.ENMT_OK:
                    results[offset + index] = Error(_status_name(status),
                                                    (detail or b"").decode("utf-8", "replace"),
                                                    repr(sources[index]))
                else:
                    results[offset + index] = self._hypotheses(result.contents, nbest, attention)
            except BaseException as e:  # an exception cannot cross the C frames
                problems.append(e)

        callback = _capi.BATCH_CALLBACK(on_result)
        status = lib.enmt_translate_batch(self._translators[session], pointers, lengths, count,
                                          ctypes.byref(options), callback, None)
        if status != _capi.ENMT_OK:
            raise Error(_status_name(status),
                        lib.enmt_translator_error(self._translators[session]).decode(),
                        "translate_batch")
        if problems:
            raise problems[0]

    def _hypotheses(self, result, nbest, attention):
        lib = _library()
        source_tokens = [self._token(0, result.src_ids[i]) for i in range(result.src_len)]
        hypotheses = []
        for index in range(min(nbest, result.num_hypotheses)):
            h = _capi.HypothesisStruct()
            lib.enmt_batch_get_hypothesis(ctypes.byref(result), index, ctypes.byref(h))
            rows = None
            if attention and h.attention:
                rows = [h.attention[t * h.src_len:(t + 1) * h.src_len]
                        for t in range(h.attention_steps)]
            hypotheses.append(Hypothesis(
                text=ctypes.string_at(h.text, h.text_length).decode("utf-8"),
                ids=h.ids[:h.length], score=h.score, log_prob=h.log_prob,
                ended_with_eos=bool(h.ended_with_eos), source_tokens=source_tokens,
                attention=rows))
        return hypotheses

    def _token(self, side, token_id):
        text, length = ctypes.c_char_p(), ctypes.c_size_t()
        _library().enmt_model_token(self._model, side, token_id, ctypes.byref(text),
                                    ctypes.byref(length))
        return ctypes.string_at(text, length.value).decode("utf-8")


from ._phonemizer import Phonemizer  # noqa: E402,F401  (English text -> phonemes)
