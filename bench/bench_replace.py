"""A big text document uploaded, replaced by a changed version, searched and removed, as the tracker's
"Integrity round 4" case: the replacement's cost (written beside the old version, then switched to) against
the first upload's, and query latency once it is in.

    .venv/bin/python bench/bench_replace.py [--paragraphs 10000] [--queries 300]

Run it with another checkout's interpreter (e.g. main's `.venv/bin/python bench/bench_replace.py` from this
directory) to compare: it imports `masis` from that interpreter's install and prints which one it used.
Offline engine, embedded store in a temporary directory. Prints JSON and a table.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from report import print_report

import masis.engine
from masis.config import Settings
from masis.engine import Engine

WORKSPACE = "bench:replace"


def text(word: str, count: int) -> bytes:
    """`count` paragraphs of ~700 characters, each with its own token and the version's `word`."""
    return "\n\n".join(
        f"The {word} ledger entry tally{i:05d} records that the {word} team filed report number {i}. "
        f"It covers budgets, launches, hiring plans and travel for quarter {i % 4 + 1} of year {2020 + i % 9}. "
        "Reviewers asked for the supporting spreadsheets, the signed approvals and a summary of the risks. "
        "The committee noted that the figures were provisional and would be audited before the board met. "
        "Several items were deferred to the next cycle because the owners were away during the review week. "
        f"The {word} archive keeps every earlier draft so that changes can be traced back to their authors."
        for i in range(count)
    ).encode()


def timed(fn: object) -> tuple[object, float]:
    started = time.perf_counter()
    result = fn()  # type: ignore[operator]
    return result, time.perf_counter() - started


def run(paragraphs: int, queries: int) -> dict[str, object]:
    first, second = text("heron", paragraphs), text("osprey", paragraphs)
    rng = random.Random(5)
    with tempfile.TemporaryDirectory(prefix="masis-bench-") as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), llm="extractive", qdrant_url=None,
                            openai_api_key=None, max_file_bytes=64 * 1024 * 1024)
        with Engine(settings) as engine:
            report, upload_s = timed(lambda: engine.ingest(WORKSPACE, [("doc.txt", first)]))
            chunks = engine.store.count(WORKSPACE)
            replaced, replace_s = timed(lambda: engine.ingest(WORKSPACE, [("doc.txt", second)]))
            assert engine.store.count(WORKSPACE) == chunks, "the replacement left the old version behind"
            latencies = []
            for _ in range(queries):
                query = f"tally{rng.randrange(paragraphs):05d} osprey report"
                started = time.perf_counter()
                engine.store.search(WORKSPACE, query, 10)
                latencies.append((time.perf_counter() - started) * 1000)
            _, remove_s = timed(lambda: engine.remove_document(WORKSPACE, "doc.txt"))
    statuses = [r.status for r in report.results + replaced.results]  # type: ignore[attr-defined]
    if statuses != ["indexed", "indexed"]:
        raise SystemExit(f"bench_replace: the uploads ended {statuses}")
    latencies.sort()
    return {
        "masis": str(Path(masis.engine.__file__).resolve().parents[1]),
        "megabytes": round(len(first) / 1e6, 2),
        "chunks": chunks,
        "upload_s": round(upload_s, 2),
        "upload_chunks_per_s": round(chunks / upload_s, 1),
        "replace_s": round(replace_s, 2),
        "replace_chunks_per_s": round(chunks / replace_s, 1),
        "query_p50_ms": round(statistics.median(latencies), 3),
        "query_p95_ms": round(latencies[int(len(latencies) * 0.95) - 1], 3),
        "remove_s": round(remove_s, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--paragraphs", type=int, default=10000, help="~0.75 chunk and 700 bytes each")
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    if args.paragraphs < 1 or args.queries < 1:
        print("bench_replace: --paragraphs and --queries must be positive", file=sys.stderr)
        return 2
    print_report(run(args.paragraphs, args.queries))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
