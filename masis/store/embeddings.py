"""Dense embeddings for hybrid retrieval: OpenAIEmbeddings behind a content-hash cache.

Chunks are embedded in batches (`MASIS_EMBED_BATCH_SIZE` texts a request), and a text embedded once by a
model is never sent again: vectors are kept in `MASIS_DATA_DIR/embeddings.db` keyed by (model, sha256 of
the text), so re-ingesting a changed file embeds only its changed chunks and `masis reindex` resumes
where it stopped. The dimension is whatever the model returns, never a configured number. The local
sentence encoder keeps the passages it has read in the same file (`VectorCache`, under its own model key).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import sqlite3
import threading
import time
from array import array
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from masis.config import Settings
from masis.errors import IngestError, UpstreamError

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    vector BLOB NOT NULL,
    used_day INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (model, sha256)
) WITHOUT ROWID;
"""
SECONDS_A_DAY = 86_400
CACHE_FILE = "embeddings.db"  # in the data directory
_PROBE = "dimension probe"
T = TypeVar("T")


class EmbeddingsUnavailableError(IngestError, UpstreamError):
    """The embeddings endpoint failed after the client's retries. An `IngestError`, so that a file being
    indexed meanwhile is reported with this reason; on a search it is an `UpstreamError` to the caller."""


class Embedder(Protocol):
    """What the stores need: document and query vectors, and their dimension."""

    model: str

    @property
    def dimension(self) -> int: ...

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


def text_key(text: str) -> str:
    """The cache's key of a text: its SHA-256, so a changed text (a replaced document) never finds the vector of
    what it replaced."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class VectorCache:
    """float32 vectors of texts in a SQLite file, kept by (model, `text_key`) with the day each was last used (so
    `masis gc` can forget the vectors of texts nobody meets any more: a replaced document's); safe to share
    between threads and processes (WAL). `clock` gives the time in seconds (tests move it)."""

    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        self._lock = threading.Lock()
        self._clock = clock
        path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(path, check_same_thread=False, timeout=30, isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        # a cache: a commit lost with the machine's power costs a reading again, not worth an fsync per question
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.executescript(_SCHEMA)
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(embeddings)")}
        if "used_day" not in columns:  # a file from before the day was kept: its vectors count as used today
            with contextlib.suppress(sqlite3.OperationalError):  # another process added it first
                self._conn.execute(
                    f"ALTER TABLE embeddings ADD COLUMN used_day INTEGER NOT NULL DEFAULT {self._today()}")

    def _today(self) -> int:
        return int(self._clock() // SECONDS_A_DAY)

    def get(self, model: str, texts: Sequence[str]) -> dict[str, bytes]:
        """The kept vectors (float32 bytes) of those texts that have one; each is marked used today."""
        by_key = {text_key(text): text for text in texts}
        found: dict[str, bytes] = {}
        unique = list(by_key)
        today = self._today()
        with self._lock:
            for start in range(0, len(unique), 500):
                part = unique[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = self._conn.execute(
                    f"SELECT sha256, vector, used_day FROM embeddings WHERE model = ? AND sha256 IN ({marks})",
                    (model, *part),
                ).fetchall()
                found.update((by_key[key], blob) for key, blob, _ in rows)
                if stale := [key for key, _, day in rows if day < today]:  # one write a vector a day at most
                    with contextlib.suppress(sqlite3.OperationalError):  # a busy file costs the mark, not the read
                        self._conn.execute(
                            f"UPDATE embeddings SET used_day = ? WHERE model = ? AND sha256 IN "
                            f"({','.join('?' * len(stale))})", (today, model, *stale))
        return found

    def put(self, model: str, vectors: Mapping[str, bytes]) -> None:
        """Keep each text's vector (float32 bytes)."""
        today = self._today()
        with self._lock:
            self._conn.executemany(
                "INSERT OR REPLACE INTO embeddings (model, sha256, vector, used_day) VALUES (?, ?, ?, ?)",
                ((model, text_key(text), blob, today) for text, blob in vectors.items()),
            )

    def forget_unused(self, days: float) -> int:
        """Forget the vectors not used in the last `days` days; returns how many."""
        with self._lock:
            cursor = self._conn.execute("DELETE FROM embeddings WHERE used_day < ?",
                                        (self._today() - math.ceil(days),))
        return cursor.rowcount

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class CachedEmbedder:
    """An `Embedder` over any langchain `Embeddings`, with the SQLite cache and batching."""

    def __init__(self, embeddings: Embeddings, model: str, cache_path: Path, batch_size: int = 128) -> None:
        self.model = model
        self._embeddings = embeddings
        self._batch = max(1, batch_size)
        self._dimension: int | None = None
        self._cache = VectorCache(cache_path)
        self.requests = 0  # embedding requests sent (for tests and benchmarks)
        self.embedded = 0  # texts sent to the model

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = len(self.embed_query(_PROBE))
        return self._dimension

    def embed_query(self, text: str) -> list[float]:
        vector = self._send(lambda: self._embeddings.embed_query(text))
        self.requests += 1
        return vector

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        found = self._cached(texts)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        for start in range(0, len(missing), self._batch):
            batch = missing[start : start + self._batch]
            vectors = self._send(lambda b=batch: self._embeddings.embed_documents(b))
            self.requests += 1
            self.embedded += len(batch)
            self._store(dict(zip(batch, vectors, strict=True)))
            found.update(zip(batch, vectors, strict=True))
        return [list(found[t]) for t in texts]

    def close(self) -> None:
        self._cache.close()

    def _cached(self, texts: Sequence[str]) -> dict[str, list[float]]:
        return {text: array("f", blob).tolist() for text, blob in self._cache.get(self.model, texts).items()}

    def _store(self, vectors: dict[str, list[float]]) -> None:
        self._cache.put(self.model, {k: array("f", v).tobytes() for k, v in vectors.items()})

    def _send(self, call: Callable[[], T]) -> T:
        import openai  # here, so that the offline path never loads the OpenAI client

        from masis.llm import failures

        try:
            return call()
        except openai.APIError as exc:
            status = getattr(exc, "status_code", None)
            reason = f"HTTP {status}" if status else type(exc).__name__
            raise EmbeddingsUnavailableError(
                f"The embedding model {self.model} did not answer ({reason}); try again later, check "
                "OPENAI_BASE_URL, or set MASIS_EMBED_MODEL= (empty) to retrieve with BM25 only.",
                unavailable=failures.unavailable(exc), retry_after=failures.retry_after(exc),
            ) from None


def make_embedder(settings: Settings) -> CachedEmbedder | None:
    """The embedder of the OpenAI path, or None (BM25 only) offline or with `MASIS_EMBED_MODEL` empty."""
    if settings.llm_provider != "openai" or not settings.embed_model.strip():
        return None
    from langchain_openai import OpenAIEmbeddings

    from masis.llm.openai_provider import api_key

    embeddings = OpenAIEmbeddings(
        model=settings.embed_model,
        api_key=api_key(settings),
        base_url=settings.openai_base_url,
        # The default counts tokens with tiktoken first, which downloads its BPE files from the internet;
        # chunks are far below the model's context, so the texts are sent as they are.
        check_embedding_ctx_length=False,
        chunk_size=max(1, settings.embed_batch_size),
        max_retries=settings.llm_max_retries,
        request_timeout=settings.llm_timeout,
    )
    cache = settings.data_dir / CACHE_FILE
    return CachedEmbedder(embeddings, settings.embed_model, cache, settings.embed_batch_size)
