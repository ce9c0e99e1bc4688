"""Engine benchmark: ingest rate, retrieval latency and a whole extractive `ask` at ~10 000 chunks.

    .venv/bin/python bench/bench_engine.py [--corpus ../shared/datasets/beir_scifact/corpus.jsonl] [--docs N]
    .venv/bin/python bench/bench_engine.py --phases   # also: where a second ingest's time goes, phase by phase

Ingests SciFact abstracts (one document each) through the normal pipeline into the embedded Qdrant
Edge store, then times retrieval (store query + per-workspace relevance scoring, as the researcher
does it) and whole `Engine.ask` calls with the offline extractive provider, over SciFact claims. The
ingest rate's anchor, from the same run: bm25s tokenising, stemming and indexing the same documents (what
`masis eval` compares retrieval with). Prints JSON and a table.

`--phases` ingests the same documents once more, into a fresh data directory under cProfile, and reports each
phase's cumulative seconds and its share of that ingest (parsing and chunking, the store's upserts with their BM25
vectors, publishing, the registry's documents and their words): the profiler slows every call, so the shares are the
figure, not the seconds.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from report import percentile, print_report

from masis.agents.researcher import question_weights
from masis.config import Settings
from masis.engine import Engine
from masis.eval.peers import Bm25sPeer
from masis.judge.relevance import coverage
from masis.judge.terms import terms

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "datasets" / "beir_scifact" / "corpus.jsonl"
WORKSPACE = "bench:scifact"


def load_corpus(path: Path, limit: int) -> list[tuple[str, bytes]]:
    docs = []
    with path.open() as handle:
        for line in handle:
            row = json.loads(line)
            text = f"{row['title']}\n\n{row['text']}"
            docs.append((f"scifact-{row['_id']}.txt", text.encode()))
            if len(docs) >= limit:
                break
    return docs


def load_queries(path: Path, limit: int) -> list[str]:
    with path.open() as handle:
        return [json.loads(line)["text"] for line, _ in zip(handle, range(limit), strict=False)]


# (label, the file the function is in, its name): the ingest's phases, as `--phases` reports them; they do not nest
PHASES = (
    ("parse and chunk", "masis/ingest/pipeline.py", "_parse"),
    ("BM25 vectors of the chunks", "masis/judge/terms.py", "document_vector"),
    ("store upserts", "masis/store/edge.py", "upsert"),
    ("store publish", "masis/store/edge.py", "publish"),
    ("registry: save documents", "masis/records/registry.py", "save_documents"),
    ("registry: each document's words", "masis/ingest/pipeline.py", "_words"),
    ("store: chunk ids another document owns", "masis/ingest/pipeline.py", "_refuse_taken_ids"),
)


def ingest_phases(docs: list[tuple[str, bytes]]) -> dict[str, float]:
    """Each phase's cumulative seconds under cProfile and its share of the whole ingest (`PHASES`), and the rest."""
    profile = cProfile.Profile()
    with (
        tempfile.TemporaryDirectory() as tmp,
        Engine(Settings(_env_file=None, data_dir=Path(tmp), llm="extractive")) as engine,
    ):
        profile.runcall(engine.ingest, WORKSPACE, docs)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    whole = max((t for (file, _, name), (_, _, _, t, _) in stats.items()
                 if name == "ingest" and file.replace("\\", "/").endswith("masis/engine.py")), default=0.0)
    found: dict[str, float] = {}
    for label, path, function in PHASES:
        seconds = sum(cumulative for (file, _, name), (_, _, _, cumulative, _) in stats.items()
                      if name == function and file.replace("\\", "/").endswith(path))
        found[f"phase {label}: s"] = round(seconds, 3)
        found[f"phase {label}: share"] = round(seconds / whole, 3) if whole else 0.0
    rest = whole - sum(found[f"phase {label}: s"] for label, _, _ in PHASES)
    found["phase the rest (transactions, checks, bookkeeping): share"] = round(rest / whole, 3) if whole else 0.0
    found["phase whole ingest (profiled): s"] = round(whole, 3)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--docs", type=int, default=5183)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--asks", type=int, default=100)
    parser.add_argument("--phases", action="store_true", help="also profile a second ingest, phase by phase")
    args = parser.parse_args()
    if not args.corpus.exists():
        print(f"bench: corpus not found: {args.corpus}", file=sys.stderr)
        return 1
    docs = load_corpus(args.corpus, args.docs)
    queries = load_queries(args.corpus.with_name("queries.jsonl"), args.queries)

    with (
        tempfile.TemporaryDirectory() as tmp,
        Engine(Settings(_env_file=None, data_dir=Path(tmp), llm="extractive")) as engine,
    ):
        start = time.perf_counter()
        report = engine.ingest(WORKSPACE, docs)
        ingest_s = time.perf_counter() - start
        chunks = engine.store.count(WORKSPACE)
        started = time.perf_counter()
        Bm25sPeer([name for name, _ in docs], [data.decode() for _, data in docs])
        bm25s_s = time.perf_counter() - started

        search_ms, retrieval_ms = [], []
        for query in queries:
            t0 = time.perf_counter()
            hits = engine.store.search(WORKSPACE, query, 10)
            t1 = time.perf_counter()
            weights = question_weights(engine.registry, WORKSPACE, query)
            [coverage(weights, terms(hit.text)) for hit in hits]
            t2 = time.perf_counter()
            search_ms.append((t1 - t0) * 1000)
            retrieval_ms.append((t2 - t0) * 1000)

        ask_ms, calls, statuses = [], [], {}
        for query in queries[: args.asks]:
            t0 = time.perf_counter()
            outcome = engine.ask(WORKSPACE, query)
            ask_ms.append((time.perf_counter() - t0) * 1000)
            calls.append(outcome.metrics["llm_calls"])
            statuses[outcome.status] = statuses.get(outcome.status, 0) + 1

    results = {
        "documents": len(docs),
        "failed": len(report.failed),
        "chunks": chunks,
        "ingest_seconds": round(ingest_s, 2),
        "ingest_chunks_per_s": round(chunks / ingest_s, 1),
        "ingest_documents_per_s": round(len(docs) / ingest_s, 1),
        "bm25s_index_seconds": round(bm25s_s, 2),
        "bm25s_documents_per_s": round(len(docs) / bm25s_s, 1),
        "ingest_documents_per_s_over_bm25s": round(bm25s_s / ingest_s, 3),
        "store_query_p50_ms": round(statistics.median(search_ms), 3),
        "store_query_p95_ms": round(percentile(search_ms, 0.95), 3),
        "retrieval_p50_ms": round(statistics.median(retrieval_ms), 3),
        "retrieval_p95_ms": round(percentile(retrieval_ms, 0.95), 3),
        "ask_p50_ms": round(statistics.median(ask_ms), 2),
        "ask_p95_ms": round(percentile(ask_ms, 0.95), 2),
        "ask_mean_llm_calls": round(statistics.mean(calls), 2),
        "ask_statuses": statuses,
    }
    if args.phases:
        results.update(ingest_phases(docs))
    print_report(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
