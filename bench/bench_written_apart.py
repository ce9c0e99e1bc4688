"""Kept `ask`s with stop 85's `anchors._written_apart` (a pattern compiled per word and cut) and stop 86's (the text's
pairs of words, read once per text) in turn, in one process, over bench_scaling's corpus; each question as if new (re's
cache and the pairs' cache emptied before it). The two give the same answers; this prints what each costs.

    PYTHONHASHSEED=0 PYTHONPATH=.:bench .venv/bin/python bench/bench_written_apart.py [--chunks 100000] [--rounds 6]

Prints JSON and a table: CPU ms p50 and mean of a kept ask with each.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Callable

from bench_scaling import WORKSPACE, forget_recent_texts, kept_asks, kept_asks_arguments
from report import print_report

from masis.judge import anchors


def compiled_per_cut(text: str, word: str) -> bool:
    """Stop 85's `_written_apart`: a pattern per cut of the word (`anchors._apart_pattern`, through re's cache), for
    every word."""
    if not (word.isalpha() and word.islower() and len(word) >= 5):
        return False
    return any(anchors._apart_pattern(word, cut).search(text) is not None
               for cut in range(anchors._APART_MIN, len(word) - 1))


def main() -> int:
    args = kept_asks_arguments(__doc__)
    ways: dict[str, Callable[[str, str], bool]] = {"compiled_per_cut": compiled_per_cut,
                                                   "pairs_read_once": anchors._written_apart}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    with kept_asks(args.chunks, args.asks) as (engine, questions):
        for turn in range(args.rounds):
            for name in (list(ways) if turn % 2 == 0 else list(reversed(ways))):
                anchors._written_apart = ways[name]  # type: ignore[assignment]
                for question in questions:
                    forget_recent_texts()
                    anchors._pairs_written_apart.cache_clear()
                    re.purge()
                    started = time.process_time()
                    engine.ask(WORKSPACE, question)
                    cpu[name].append((time.process_time() - started) * 1000)
    rows = [{"way": name, "cpu_p50_ms": round(statistics.median(times), 1),
             "cpu_mean_ms": round(statistics.mean(times), 1), "asks": len(times)} for name, times in cpu.items()]
    print_report({"chunks": args.chunks, "rounds": args.rounds, "ways": rows}, rows=rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
