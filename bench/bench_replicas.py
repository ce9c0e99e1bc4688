"""Answers per second with one and with two replicas on one PostgreSQL (`MASIS_DATABASE_URL`), on the
offline extractive engine, beside the SQLite default.

    .venv/bin/python bench/bench_replicas.py [--questions 60] [--workers 4]

A throw-away PostgreSQL 15 cluster (tests/postgres.py) holds the state; each replica is a process with its
own Engine and a copy of one embedded store (production replicas share a Qdrant server). Every question is
a new thread, answered by `--workers` threads per replica; the figure is all answers over the wall time
from the moment every replica is ready until the last answer."""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from masis.engine import Engine  # noqa: E402
from tests.conftest import SAMPLE_DIR, make_settings  # noqa: E402
from tests.postgres import missing_reason, running_postgres  # noqa: E402

QUESTIONS = ["What is our AI investment strategy?", "What is the remote work policy?",
             "What is our AI investment strategy in 2026?", "What does the remote work policy say?"]


def _replica(data_dir: str, url: str | None, questions: int, workers: int, index: int,
             ready: mp.Barrier, result: mp.Queue) -> None:  # type: ignore[type-arg]
    with Engine(make_settings(Path(data_dir), database_url=url)) as engine:
        engine.ask("demo", QUESTIONS[0], thread_id=f"warm-{index}")  # loads the graph
        ready.wait()
        started = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            statuses = list(pool.map(lambda i: engine.ask("demo", QUESTIONS[i % len(QUESTIONS)],
                                                          thread_id=f"r{index}-q{i}").status, range(questions)))
        result.put((time.perf_counter() - started, statuses))


def run(root: Path, url: str | None, replicas: int, questions: int, workers: int) -> float:
    seeded = root / f"seed-{replicas}-{bool(url)}"
    with Engine(make_settings(seeded, database_url=url)) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
    dirs = [seeded]
    for n in range(1, replicas):
        copy = root / f"copy-{replicas}-{n}"
        shutil.copytree(seeded / "qdrant-edge", copy / "qdrant-edge")
        dirs.append(copy)
    ctx = mp.get_context("spawn")
    ready, result = ctx.Barrier(replicas + 1), ctx.Queue()
    procs = [ctx.Process(target=_replica, args=(str(d), url, questions // replicas, workers, i, ready, result))
             for i, d in enumerate(dirs)]
    for proc in procs:
        proc.start()
    ready.wait()
    started = time.perf_counter()
    answers = [result.get(timeout=600) for _ in procs]
    elapsed = time.perf_counter() - started
    for proc in procs:
        proc.join()
    assert all(s == "answered" for _, statuses in answers for s in statuses), answers
    return questions // replicas * replicas / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    if (reason := missing_reason()) is not None:
        sys.exit(f"bench_replicas: {reason}")
    root = Path(tempfile.mkdtemp(prefix="masis-bench-replicas-"))
    try:
        figures = {"sqlite_1_replica": run(root, None, 1, args.questions, args.workers)}
        with running_postgres() as server:
            figures["postgres_1_replica"] = run(root, server.create_database(), 1, args.questions, args.workers)
            figures["postgres_2_replicas"] = run(root, server.create_database(), 2, args.questions, args.workers)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(json.dumps({"answers_per_second": {k: round(v, 2) for k, v in figures.items()},
                      "questions": args.questions, "workers_per_replica": args.workers}))
    for name, value in figures.items():
        print(f"{name:22} {value:6.2f} answers/s")


if __name__ == "__main__":
    main()
