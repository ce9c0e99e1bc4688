"""`masis eval DATASET PATH`: the command-line face of the evaluation (masis/cli.py only dispatches here).

Every `masis` call builds this parser, so the runner, its peers and rich load only in `run`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from masis.errors import MasisError
from masis.eval.datasets import LOADERS, Query, load

T = TypeVar("T")


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser(
        "eval",
        help="measure retrieval and answers on a labelled set, beside bm25s and a naive baseline",
        description="Ingest a labelled set into a fresh offline engine and report retrieval and answer figures.",
    )
    parser.add_argument("dataset", choices=sorted([*LOADERS, "conversations"]), help="which loader reads PATH")
    parser.add_argument(
        "path", type=Path, help="the dataset's directory (for squad and squad2, also the JSON file itself)"
    )
    parser.add_argument(
        "--limit",
        type=int,
        help="evaluate N queries drawn with --seed (the corpus stays whole); with unanswerable questions (squad2, "
        "realdocs), N answerable and N unanswerable; for conversations, N conversations",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--split",
        help="SciFact judgements to use: test (default) or train; realdocs and conversations: tune, check "
        "or all (default)",
    )
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
    parser.add_argument(
        "--records",
        type=Path,
        metavar="FILE",
        help="write one JSON line per question asked (its answer, confidence, verdict, golds, cited documents)",
    )


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

    from masis.eval import conversations
    from masis.eval.runner import run_eval, to_markdown

    if args.records is not None:
        if args.no_answers:
            raise MasisError("--records writes the answers; drop --no-answers.")
        if not args.records.parent.is_dir():
            raise MasisError(f"{args.records.parent}: no such directory for --records.")
    records: list[dict[str, Any]] = []
    if args.dataset == "conversations":
        if args.open_book is not None or args.no_answers:
            raise MasisError("conversations are answered turn by turn; drop --open-book and --no-answers.")
        asked = conversations.sample(
            conversations.load_conversations(args.path, args.split or "all"), args.limit, args.seed
        )
    else:
        labelled = load(args.dataset, args.path, args.split)
        unanswerable: list[Query] = []
        if args.open_book is not None:
            if args.no_answers:
                raise MasisError("--open-book measures answers; drop --no-answers.")
            labelled, unanswerable = labelled.open_book(args.open_book, args.seed, args.limit)
        elif labelled.has_unanswerable:  # retrieval is measured on the answerable ones only
            labelled, unanswerable = labelled.answer_or_refuse(args.limit, args.seed)
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

        if args.dataset == "conversations":
            results = conversations.run_conversations(args.path, asked, track=track, records_out=records)
        else:
            results = run_eval(
                labelled,
                depth=args.depth,
                answers=not args.no_answers,
                unanswerable=unanswerable,
                track=track,
                records_out=records,
            )
    if args.records is not None:
        with args.records.open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    elif args.dataset == "conversations":
        print(conversations.to_markdown(results))
    else:
        print(to_markdown(results))
    missed = [t for t in results["targets"] if not t["met"]]
    if missed:
        print(f"masis eval: {len(missed)} target(s) not met", file=sys.stderr)
    return 0
