"""Per-file cost of parsing in a forked, limited child versus in-process.

Run: .venv/bin/python bench/bench_isolation.py
"""

from __future__ import annotations

import json
import resource
import statistics
import tempfile
import time
from pathlib import Path

from masis.config import Settings
from masis.engine import Engine
from masis.ingest.isolation import run_isolated
from masis.ingest.loaders import load_document

SMALL = b"The Falcon budget is $2 million. The deadline is March 2027.\n\n" * 20
ROUNDS = 200


def timed(fn: object) -> list[float]:
    samples = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def main() -> None:
    # fork cost grows with the parent's mappings: measure from a process that holds a live engine, as the bot does
    engine = Engine(Settings(_env_file=None, data_dir=Path(tempfile.mkdtemp()) / "data", llm="extractive",
                             qdrant_url=None, openai_api_key=None))
    engine.ingest_paths("bench", [Path(__file__).resolve().parents[1] / "data" / "sample"])
    inline = timed(lambda: load_document("a.txt", SMALL))
    isolated = timed(lambda: run_isolated(lambda: load_document("a.txt", SMALL), timeout=30,
                                          memory_bytes=1024 * 1024 * 1024))
    result = {
        "rounds": ROUNDS,
        "in_process_ms_p50": round(statistics.median(inline), 3),
        "isolated_ms_p50": round(statistics.median(isolated), 3),
        "isolated_ms_p95": round(sorted(isolated)[int(ROUNDS * 0.95)], 3),
        "overhead_ms_p50": round(statistics.median(isolated) - statistics.median(inline), 3),
    }
    result["parent_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    engine.close()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
