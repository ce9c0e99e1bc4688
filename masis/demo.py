"""`make run`: ingest the sample corpus into a `demo` workspace and answer two questions, offline.

It uses the CLI's data directory (`MASIS_DATA_DIR`, default `./.masis`), so `masis ask --workspace demo`
answers afterwards. A re-run finds the documents unchanged and asks in new threads.

The second question hits the corpus's deliberate conflict (Q3 revenue), shows the clarifying question,
and resumes the saved graph with a choice of source, as a user would in Slack.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from masis.cli import ingest_with_progress
from masis.config import Settings
from masis.engine import Engine
from masis.errors import MasisError
from masis.render import print_outcome

SAMPLE_DIR = Path(__file__).resolve().parent.parent / "data" / "sample"
WORKSPACE = "demo"
QUESTION = "What is our AI investment strategy?"
CONFLICT_QUESTION = "What was Q3 2026 revenue?"


def run(console: Console) -> None:
    settings = Settings()
    console.rule(f"MASIS demo · LLM: {settings.llm_provider} · data: {settings.data_dir}")
    with Engine(settings) as engine:
        report = ingest_with_progress(engine, console, WORKSPACE, [SAMPLE_DIR], "demo")
        for result in report.results:
            console.print(f"  {result.name}: {result.chunks} chunks ({result.reason or result.status})")
        console.rule(f"Q: {QUESTION}")
        print_outcome(console, engine.ask(WORKSPACE, QUESTION))

        console.rule(f"Q: {CONFLICT_QUESTION}")
        outcome = engine.ask(WORKSPACE, CONFLICT_QUESTION)
        print_outcome(console, outcome)
        if outcome.status == "needs_clarification" and outcome.clarification and outcome.clarification.options:
            source = outcome.clarification.options[-1]
            console.rule(f"Reply: trust {source}")
            print_outcome(console, engine.reply(outcome.thread_id, choice=f"source:{source}"))
    console.rule("Your turn")
    console.print(f'.venv/bin/masis ask --workspace {WORKSPACE} "{QUESTION}"', highlight=False, soft_wrap=True)


def main() -> int:
    console = Console()
    try:
        run(console)
    except MasisError as exc:
        print(f"masis: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
