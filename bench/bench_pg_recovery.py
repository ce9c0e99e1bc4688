"""An engine on PostgreSQL while the database restarts and while it is down: how long questions take before
and what one registry read costs, how long after `pg_ctl restart` until one is answered again (and how many
failed meanwhile), how long a question waits before it is told the database is unavailable, and how soon
questions work once it is back.

    .venv/bin/python bench/bench_pg_recovery.py [--questions 40] [--wait 10]

Run it from another checkout (e.g. `python /path/to/main/bench/bench_pg_recovery.py`) to compare: it imports
the `masis` beside it. A throw-away PostgreSQL 15 cluster (tests/postgres.py), the offline extractive engine,
the sample corpus. Prints JSON and a table; a figure that never happened within `--give-up` seconds is null.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from report import percentile, print_report  # noqa: E402

import masis.engine  # noqa: E402
from masis.engine import Engine  # noqa: E402
from tests.conftest import SAMPLE_DIR, make_settings  # noqa: E402
from tests.postgres import PostgresServer, missing_reason, running_postgres  # noqa: E402

QUESTION = "What is the remote work policy?"


def ask(engine: Engine, thread: str) -> tuple[bool, float]:
    """(answered, seconds) of one new question."""
    started = time.perf_counter()
    try:
        ok = engine.ask("demo", QUESTION, thread_id=thread).status == "answered"
    except Exception:
        ok = False
    return ok, time.perf_counter() - started


def registry_call_us(engine: Engine, batches: int = 7, calls: int = 300) -> float:
    """Median over batches of the microseconds one registry read takes (a statement, and on this branch the
    pool's test of its connection)."""
    per_call = []
    for _ in range(batches):
        started = time.perf_counter()
        for _ in range(calls):
            engine.registry.conversation("bench:probe")
        per_call.append((time.perf_counter() - started) / calls * 1e6)
    return round(statistics.median(per_call), 1)


def until_answered(engine: Engine, prefix: str, give_up: float) -> tuple[float | None, int]:
    """Seconds until a question is answered again, and how many failed before it."""
    started, failed = time.perf_counter(), 0
    while time.perf_counter() - started < give_up:
        ok, _ = ask(engine, f"{prefix}-{failed}")
        if ok:
            return round(time.perf_counter() - started, 3), failed
        failed += 1
    return None, failed


def run(server: PostgresServer, questions: int, wait: float, give_up: float) -> dict[str, object]:
    settings = make_settings(Path(tempfile.mkdtemp(prefix="masis-bench-pg-")), database_url=server.create_database(),
                             database_wait_seconds=wait)
    with Engine(settings) as engine:
        assert not engine.ingest_paths("demo", [SAMPLE_DIR]).failed
        for i in range(5):
            ask(engine, f"warm-{i}")
        times = [ask(engine, f"q-{i}")[1] * 1000 for i in range(questions)]
        call_us = registry_call_us(engine)

        server.restart()
        restart_s, restart_failed = until_answered(engine, "after-restart", give_up)

        server.halt()
        first_ok, first_s = ask(engine, "down-1")
        second_ok, second_s = ask(engine, "down-2")
        server.resume()
        back_s, back_failed = until_answered(engine, "after-outage", give_up)
    return {
        "masis": str(Path(masis.engine.__file__).resolve().parent.parent),
        "questions": questions,
        "ask_ms": {"p50": round(statistics.median(times), 2), "p95": round(percentile(times, 95), 2)},
        "registry_read_us": call_us,
        "after_restart": {"seconds_to_an_answer": restart_s, "questions_failed": restart_failed},
        "while_down": {"first_question_failed_after_s": None if first_ok else round(first_s, 2),
                       "next_question_failed_after_s": None if second_ok else round(second_s, 2)},
        "after_outage": {"seconds_to_an_answer": back_s, "questions_failed": back_failed},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--wait", type=float, default=10.0, help="MASIS_DATABASE_WAIT_SECONDS (this branch's)")
    parser.add_argument("--give-up", type=float, default=60.0, help="seconds before a recovery counts as never")
    args = parser.parse_args()
    for name in ("psycopg.pool", "masis.records.presence"):  # their reconnection warnings are expected here
        logging.getLogger(name).setLevel(logging.ERROR)
    if (reason := missing_reason()) is not None:
        print(f"skipped: {reason}", file=sys.stderr)
        return 2
    with running_postgres() as server:
        figures = run(server, args.questions, args.wait, args.give_up)
        with contextlib.suppress(ImportError):  # a checkout from before presences kept itself
            from masis.records.presence import close_presences

            close_presences()
    print_report(figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
