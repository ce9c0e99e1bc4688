"""Scaling of the embedded store: query latency, peak memory and a whole extractive `ask` as one
workspace grows to 1k, 10k, 50k and 100k chunks among 20 workspaces.

    .venv/bin/python bench/bench_scaling.py [--sizes 1000,10000,50000,100000] [--queries 200] [--asks 30]
        [--trace-python]

`--asks 0` measures the store alone (no whole `ask`). Each size also reports where the process's resident
memory is (`memory_mb`, from /proc/self/smaps): the store's memory-mapped files by part (payload, sparse
vectors, sparse index, payload indexes, id tracker, WAL), the C heap and anonymous memory (Qdrant Edge's
in-RAM structures, SQLite's page cache, Python's objects) and the rest (code); with `--trace-python`,
tracemalloc counts Python's own allocations too (slower). The registry's file size is `registry_mb`.

The store is Qdrant Edge in one local directory, as `masis` runs by default. The measured workspace holds
N chunks; 19 other workspaces hold N more between them, so every query's tenant filter has to skip half of
the store. Chunks are synthetic ~110-word passages over a Zipf-distributed 30,000-word vocabulary, written
straight to the store and the registry (the ingest pipeline's own rate is bench_ingest.py's figure); the
workspace grows in place from one size to the next. Queries are 3-6 words of mid-frequency vocabulary.

- query: `store.search` for the top 10 chunks (what the researcher fetches on a first pass);
- ask: a whole `Engine.ask` with the offline extractive engine (researcher, synthesizer, critic,
  evaluator, supervisor and the SQLite checkpoints); `ask_answered` is the share that ended in an answer
  (the rest asked back: random words are often not answerable), `ask_role_calls` the agents' calls per ask (3 an
  attempt: 9 is a first draft and two retries, `MASIS_MAX_RETRIES`). The sentence encoder reads every passage
  and sentence these questions weigh for the first time;
- ask_kept: the same questions again, each in a new thread, with the encoder's memory of recent texts
  emptied first (as in a restarted process): what an `ask` costs once the passages it weighs have been read
  and kept (`embeddings.db`), so that only the question is read. A revision that keeps nothing (before
  the kept vectors) reads everything again here; `*_cpu_*` are the process's CPU milliseconds for an
  ask, which a busy machine moves far less than the wall time;
- texts_read_per_ask (and _kept): the texts the sentence encoder read per `ask` (questions, passages, sentences),
  counted by wrapping the revision's `SentenceEncoder._read`;
- growth exponent: the slope of log(p50) against log(chunks), fitted by least squares (1 = linear).

Prints JSON and a table.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy
import psutil
from report import percentile, print_report

from masis.config import Settings
from masis.engine import Engine
from masis.judge.terms import terms
from masis.records.registry import DocumentInfo, now_iso
from masis.store.base import ChunkRecord

WORKSPACE = "T0001:C-measured"
OTHER_WORKSPACES = [f"T0001:C-other-{i:02d}" for i in range(19)]
CHUNKS_PER_DOCUMENT = 250
VOCABULARY = 30_000
WORDS_PER_CHUNK = 110
_SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "shi", "der", "pan", "tor", "gel", "quin", "bra", "fu", "zet"]


def vocabulary(rng: random.Random) -> list[str]:
    words: set[str] = set()
    while len(words) < VOCABULARY:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    # sorted first: a set's order changes with the process's hash seed, and the corpus and questions must not
    return sorted(sorted(words), key=lambda _: rng.random())


class Corpus:
    """Deterministic synthetic chunks: Zipf word frequencies, sentences of 8-20 words."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.words = vocabulary(self.rng)
        self.numpy = numpy.random.default_rng(seed)
        weights = 1 / numpy.arange(1, VOCABULARY + 1)
        self.p = weights / weights.sum()

    def passages(self, count: int) -> list[str]:
        drawn = self.numpy.choice(VOCABULARY, size=(count, WORDS_PER_CHUNK), p=self.p)
        return [self._sentences([self.words[i] for i in row]) for row in drawn]

    def _sentences(self, words: list[str]) -> str:
        sentences, start = [], 0
        while start < len(words):
            end = start + self.rng.randint(8, 20)
            sentence = " ".join(words[start:end])
            sentences.append(sentence[:1].upper() + sentence[1:] + ".")
            start = end
        return " ".join(sentences)

    def query(self) -> str:
        return " ".join(self.rng.choice(self.words[50:5000]) for _ in range(self.rng.randint(3, 6)))


def add_chunks(engine: Engine, corpus: Corpus, workspace: str, count: int, first_doc: int) -> int:
    """Write `count` chunks to `workspace` as documents of 250 chunks; return the next document number."""
    doc = first_doc
    while count > 0:
        size = min(CHUNKS_PER_DOCUMENT, count)
        name = f"doc-{doc:06d}.txt"
        chunks = [
            ChunkRecord(chunk_id=f"{name}#{i + 1}", doc_name=name, text=text, ordinal=i)
            for i, text in enumerate(corpus.passages(size))
        ]
        engine.store.upsert(workspace, chunks)
        info = DocumentInfo(name, size, sum(len(c.text) for c in chunks), None, "bench", now_iso(), f"{doc:064x}")
        engine.registry.save_document(workspace, info, (terms(c.text) for c in chunks))
        count -= size
        doc += 1
    return doc


def kept_asks_arguments(description: str) -> argparse.Namespace:
    """The command line of a benchmark that compares two ways of one step over kept asks, in alternating rounds."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chunks", type=int, default=10000)
    parser.add_argument("--asks", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=6, help="rounds of both, their order alternating")
    return parser.parse_args()


@contextmanager
def kept_asks(chunks: int, asks: int) -> Iterator[tuple[Engine, list[str]]]:
    """An offline engine over `chunks` synthetic chunks in `WORKSPACE` and `asks` questions, each asked once so that
    its passages are read and kept: what a benchmark of kept asks measures next."""
    with tempfile.TemporaryDirectory(prefix="masis-bench-") as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), llm="extractive", qdrant_url=None, openai_api_key=None)
        with Engine(settings) as engine:
            corpus = Corpus(7)
            questions = [corpus.query() for _ in range(asks)]
            add_chunks(engine, corpus, WORKSPACE, chunks, 0)
            for question in ["warm up", *questions]:
                engine.ask(WORKSPACE, question)
            yield engine, questions


def growth_exponent(sizes: Sequence[float], values: Sequence[float]) -> float:
    """Least-squares slope of log(value) against log(size)."""
    xs, ys = [math.log(s) for s in sizes], [math.log(max(v, 1e-9)) for v in values]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def forget_recent_texts() -> None:
    """Empty the loaded sentence encoder's memory of the texts it read (any revision's: it is `_recent`), and what
    the process remembers of each question's words and each text's terms, so that a question asked again costs
    what a new one does."""
    from masis.judge import matching, semantic, terms

    for loaded in semantic._loaded.values():
        recent = getattr(loaded, "_recent", None)
        if recent is not None:
            recent.clear()
    for remembered in (matching.question, matching.related, terms.terms):
        clear = getattr(remembered, "cache_clear", None)
        if clear is not None:
            clear()


class Readings:
    """How many texts the sentence encoder reads (any revision's `SentenceEncoder._read`, wrapped once per process):
    a passage or sentence it was given but had read before, or found kept, is not counted."""

    texts = 0

    @classmethod
    def start(cls) -> None:
        from masis.judge import semantic

        real = semantic.SentenceEncoder._read
        if getattr(real, "counted", False):
            return

        def counting(encoder: semantic.SentenceEncoder, texts: Sequence[str]) -> numpy.ndarray:
            cls.texts += len(texts)
            return real(encoder, texts)

        counting.counted = True  # type: ignore[attr-defined]
        semantic.SentenceEncoder._read = counting  # type: ignore[method-assign]


# A file of a Qdrant Edge shard -> the part of the store it holds.
_STORE_PARTS = [
    ("wal/", "store_wal"),
    ("payload_storage", "store_payload"),
    ("payload_index", "store_payload_indexes"),
    ("vector_index", "store_sparse_index"),
    ("vector_storage", "store_sparse_vectors"),
    ("id_tracker", "store_id_tracker"),
]
_MAPPING = re.compile(r"^[0-9a-f]+-[0-9a-f]+ ")


def memory_breakdown(data_dir: Path) -> dict[str, float]:
    """Resident MB by where: the store's files by part, the C heap with anonymous memory, and the rest."""
    parts: dict[str, float] = {}
    where = "other"
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            if _MAPPING.match(line):
                fields = line.split(None, 5)
                name = fields[5].strip() if len(fields) > 5 else ""
                if name.startswith(str(data_dir)):
                    where = next((part for marker, part in _STORE_PARTS if marker in name), "store_other")
                elif name in ("", "[heap]") or name.startswith("[anon"):
                    where = "heap_and_anonymous"
                else:
                    where = "code_and_other"
            elif line.startswith("Rss:"):
                parts[where] = parts.get(where, 0.0) + int(line.split()[1]) / 1024
    if tracemalloc.is_tracing():
        parts["python_objects"] = tracemalloc.get_traced_memory()[0] / 2**20
    return {part: round(mb, 1) for part, mb in sorted(parts.items())}


def measure(engine: Engine, queries: Sequence[str], asks: int) -> dict[str, object]:
    for query in queries[:20]:
        engine.store.search(WORKSPACE, query, 10)  # warm the caches
    query_ms = []
    for query in queries:
        started = time.perf_counter()
        engine.store.search(WORKSPACE, query, 10)
        query_ms.append((time.perf_counter() - started) * 1000)
    ask_ms, ask_cpu_ms, answered, role_calls = [], [], 0, 0
    Readings.start()
    read_before = Readings.texts
    for query in queries[:asks]:
        started, cpu = time.perf_counter(), time.process_time()
        outcome = engine.ask(WORKSPACE, query)
        ask_ms.append((time.perf_counter() - started) * 1000)
        ask_cpu_ms.append((time.process_time() - cpu) * 1000)
        answered += outcome.status == "answered"
        role_calls += outcome.metrics["llm_calls"]  # 3 an attempt: how many attempts the questions took
    read_new = Readings.texts - read_before
    forget_recent_texts()
    kept_ms, kept_cpu_ms = [], []
    for query in queries[:asks]:
        started, cpu = time.perf_counter(), time.process_time()
        engine.ask(WORKSPACE, query)
        kept_ms.append((time.perf_counter() - started) * 1000)
        kept_cpu_ms.append((time.process_time() - cpu) * 1000)
    read_kept = Readings.texts - read_before - read_new
    return {
        "query_p50_ms": round(statistics.median(query_ms), 3),
        "query_p95_ms": round(percentile(query_ms, 0.95), 3),
        "ask_p50_ms": round(statistics.median(ask_ms), 1) if ask_ms else 0.0,
        "ask_p95_ms": round(percentile(ask_ms, 0.95), 1) if ask_ms else 0.0,
        "ask_answered": round(answered / len(ask_ms), 2) if ask_ms else 0.0,
        "ask_role_calls": round(role_calls / len(ask_ms), 2) if ask_ms else 0.0,
        "ask_cpu_p50_ms": round(statistics.median(ask_cpu_ms), 1) if ask_cpu_ms else 0.0,
        "ask_kept_p50_ms": round(statistics.median(kept_ms), 1) if kept_ms else 0.0,
        "ask_kept_p95_ms": round(percentile(kept_ms, 0.95), 1) if kept_ms else 0.0,
        "ask_kept_cpu_p50_ms": round(statistics.median(kept_cpu_ms), 1) if kept_cpu_ms else 0.0,
        "texts_read_per_ask": round(read_new / asks, 2) if asks else 0.0,
        "texts_read_per_ask_kept": round(read_kept / asks, 2) if asks else 0.0,
        "rss_mb": round(psutil.Process().memory_info().rss / 2**20, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "memory_mb": memory_breakdown(engine.settings.data_dir),
        "registry_mb": round(engine.settings.registry_path.stat().st_size / 2**20, 1),
    }


def run(sizes: Sequence[int], n_queries: int, asks: int, seed: int = 7) -> dict[str, object]:
    corpus = Corpus(seed)
    queries = [corpus.query() for _ in range(n_queries)]
    rows = []
    with tempfile.TemporaryDirectory(prefix="masis-bench-") as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), llm="extractive", qdrant_url=None, openai_api_key=None)
        with Engine(settings) as engine:
            have, next_doc = 0, 0
            for size in sorted(sizes):
                started = time.perf_counter()
                next_doc = add_chunks(engine, corpus, WORKSPACE, size - have, next_doc)
                share, extra = divmod(size - have, len(OTHER_WORKSPACES))
                for i, other in enumerate(OTHER_WORKSPACES):
                    next_doc = add_chunks(engine, corpus, other, share + (1 if i < extra else 0), next_doc)
                load_s = time.perf_counter() - started
                have = size
                figures = measure(engine, queries, asks)
                rows.append({"chunks": size, "store_chunks": 2 * size, "load_s": round(load_s, 1), **figures})
                print(f"bench_scaling: {size} chunks: {figures}", file=sys.stderr, flush=True)
    chunk_sizes = [r["chunks"] for r in rows]
    return {
        "workspaces": 1 + len(OTHER_WORKSPACES),
        "queries": n_queries,
        "asks": asks,
        "sizes": rows,
        "query_p50_growth_exponent": round(growth_exponent(chunk_sizes, [r["query_p50_ms"] for r in rows]), 3),
        "ask_p50_growth_exponent": round(growth_exponent(chunk_sizes, [r["ask_p50_ms"] for r in rows]), 3)
        if asks
        else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,50000,100000", help="chunks in the measured workspace")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--asks", type=int, default=30)
    parser.add_argument("--trace-python", action="store_true", help="count Python's allocations (tracemalloc)")
    args = parser.parse_args()
    if args.trace_python:
        tracemalloc.start()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if len(sizes) < 2 or min(sizes) < 1:
        print("bench_scaling: --sizes needs two or more positive sizes", file=sys.stderr)
        return 2
    figures = run(sizes, args.queries, args.asks)
    print_report(figures, rows=figures["sizes"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
