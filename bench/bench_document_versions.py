"""Kept `ask`s with stop 86's lookup of the candidates' document versions (joined to their packed terms rows) and
stop 87's (from `documents` alone) in turn, in one process, over bench_scaling's corpus; each question as if new (the
encoder's and the words' caches emptied before it). The two give the same answers; this prints what each costs.

    PYTHONHASHSEED=0 PYTHONPATH=.:bench .venv/bin/python bench/bench_document_versions.py [--chunks 100000] [--rounds 6]

Prints JSON and a table: CPU ms p50 and mean of a kept ask, and of the version lookup alone, with each.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from bench_scaling import WORKSPACE, forget_recent_texts, kept_asks, kept_asks_arguments
from report import print_report

from masis.records import registry
from masis.records.db import Conn


def joined_to_terms(conn: Conn, workspace_id: str, names: Sequence[str]) -> Iterator[tuple[Any, ...]]:
    """Stop 86's lookup: the version read through the documents' terms rows."""
    rows = registry._named_rows(conn, "SELECT t.name, d.sha256, d.uploaded_at FROM doc_term_counts t "
                                "JOIN documents d ON d.workspace_id = t.workspace_id AND d.name = t.name "
                                "WHERE t.workspace_id = ? AND t.name", workspace_id, names)
    return (tuple(row) for row in rows)


def main() -> int:
    args = kept_asks_arguments(__doc__)
    ways: dict[str, Callable[[Conn, str, Sequence[str]], Iterator[tuple[Any, ...]]]] = {
        "joined_to_terms": joined_to_terms, "documents_alone": registry._versions}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    lookup: dict[str, list[float]] = {name: [] for name in ways}
    with kept_asks(args.chunks, args.asks) as (engine, questions):
        for turn in range(args.rounds):
            for name in (list(ways) if turn % 2 == 0 else list(reversed(ways))):
                way = ways[name]

                def timed(conn: Conn, workspace_id: str, names: Sequence[str],
                          way: Callable[..., Iterator[tuple[Any, ...]]] = way,
                          spent: list[float] = lookup[name]) -> Iterator[tuple[Any, ...]]:
                    started = time.process_time()
                    rows = list(way(conn, workspace_id, names))
                    spent.append((time.process_time() - started) * 1000)
                    return iter(rows)

                registry._versions = timed  # type: ignore[assignment]
                for question in questions:
                    forget_recent_texts()
                    started = time.process_time()
                    engine.ask(WORKSPACE, question)
                    cpu[name].append((time.process_time() - started) * 1000)
    rows = [{"way": name, "cpu_p50_ms": round(statistics.median(cpu[name]), 1),
             "cpu_mean_ms": round(statistics.mean(cpu[name]), 1),
             "lookup_p50_ms": round(statistics.median(lookup[name]), 2), "asks": len(cpu[name])} for name in ways]
    print_report({"chunks": args.chunks, "rounds": args.rounds, "ways": rows}, rows=rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
