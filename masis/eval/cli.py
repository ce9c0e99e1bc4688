"""`masis eval DATASET PATH`: the command-line face of the evaluation (masis/cli.py only dispatches here).

Every `masis` call builds this parser, so the runner, its peers and rich load only in `run`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from masis.errors import MasisError
from masis.eval.datasets import LOADERS, Query, load

T = TypeVar("T")


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "eval",
        help="measure retrieval and answers on a labelled set, beside bm25s and a naive baseline",
        description="Ingest a labelled set into a fresh offline engine and report retrieval and answer figures.",
    )
    parser.add_argument("dataset", choices=sorted(LOADERS), help="which loader reads PATH")
    parser.add_argument("path", type=Path, help="the dataset's directory (for squad, also the JSON file itself)")
    parser.add_argument("--limit", type=int, help="evaluate N queries drawn with --seed (the corpus stays whole)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", default="test", help="SciFact judgements to use: test or train")
    parser.add_argument("--depth", type=int, help="chunks fetched per query (default 100; 1000 for vaswani)")
    parser.add_argument("--no-answers", action="store_true", help="retrieval only: skip the Engine.ask run")
    parser.add_argument(
        "--open-book",
        type=int,
        metavar="K",
        help="answer or refuse: index K sources (SQuAD articles) drawn with --seed, withhold K others, and ask "
        "--limit questions from each half: the first should be answered, the second refused",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object only")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from masis.eval.runner import run_eval, to_markdown

    labelled = load(args.dataset, args.path, args.split)
    unanswerable: list[Query] = []
    if args.open_book is not None:
        if args.no_answers:
            raise MasisError("--open-book measures answers; drop --no-answers.")
        labelled, unanswerable = labelled.open_book(args.open_book, args.seed, args.limit)
    else:
        labelled = labelled.sample(args.limit, args.seed)
    console = Console(stderr=True)
    columns = (
        TextColumn("{task.description:<14}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:

        def track(items: Iterable[T], description: str, total: int) -> Iterator[T]:
            yield from progress.track(items, total=total, description=description)

        results = run_eval(
            labelled, depth=args.depth, answers=not args.no_answers, unanswerable=unanswerable, track=track
        )
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(to_markdown(results))
    missed = [t for t in results["targets"] if not t["met"]]
    if missed:
        print(f"masis eval: {len(missed)} target(s) not met", file=sys.stderr)
    return 0
