"""`masis ingest | docs | ask | reply | reindex | gc | migrate | serve | eval`: the engine from a terminal or a script.

Errors are one line on stderr and a non-zero exit, never a traceback. With `--json`, `ask` and `reply`
print one Outcome object and exit 0 for an answer and for a clarification alike. `ingest` prints a line per
file and a summary line last, and exits 0 when every file was indexed or unchanged, 3 when some failed.

Every CLI call pays for what this module imports, so it imports only the standard library at the top: the
engine (LangGraph, the store, the loaders), rich, the evaluation and the Slack bot load inside the command
that needs them (`tests/unit/test_cli_imports.py` keeps it so).
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import math
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from masis.errors import MasisError
from masis.eval import cli as eval_cli
from masis.redact import redact, redact_logs

if TYPE_CHECKING:
    from rich.console import Console

    from masis.config import Settings
    from masis.engine import Engine
    from masis.ingest.pipeline import IngestReport
    from masis.outcome import Outcome

EXIT_ERROR = 1  # the command failed: one line on stderr says why
EXIT_USAGE = 2  # bad arguments (argparse)
EXIT_SOME_FAILED = 3  # `masis ingest`: some files failed (each says why); the others were indexed


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="masis", description="Cited, audited answers from your documents.")
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="index files or directories into a workspace")
    ingest.add_argument("--workspace", required=True)
    ingest.add_argument("--by", default="cli", help="who uploaded the files (shown by `masis docs`)")
    ingest.add_argument("paths", nargs="+", type=Path)

    docs = sub.add_parser("docs", help="list a workspace's documents, or remove one")
    docs.add_argument("--workspace", required=True)
    docs.add_argument("--remove", metavar="NAME")
    docs.add_argument("--json", action="store_true", help='print {"workspace_id", "documents": [...]} as the API does')

    ask = sub.add_parser("ask", help="ask a question")
    ask.add_argument("--workspace", required=True)
    ask.add_argument("--thread", help="thread id (default: a new one)")
    ask.add_argument("--max-retries", type=int, help="retries after a poor audit (default: MASIS_MAX_RETRIES, "
                     "else 2 with a model and 0 on the offline engine)")
    ask.add_argument("--json", action="store_true", help="print one Outcome JSON object")
    ask.add_argument("question", nargs="+")

    reply = sub.add_parser("reply", help="answer a pending clarification")
    reply.add_argument("--thread", required=True)
    reply.add_argument("--json", action="store_true")
    reply.add_argument("--choice", help="accept | cancel | source:<document> | about:<option>")
    reply.add_argument("text", nargs="*")
    reply.add_argument("--round", type=int, help="refuse the reply unless this clarification round is pending")

    reindex = sub.add_parser(
        "reindex", help="renumber chunks indexed by an older MASIS; add dense vectors to chunks that lack them"
    )
    reindex.add_argument("--workspace", help="only this workspace (default: every workspace)")
    gc = sub.add_parser("gc", help="prune old conversations' checkpoints and vacuum the databases")
    gc.add_argument("--older-than", type=float, metavar="DAYS",
                    help="forget conversations idle this long (default MASIS_CHECKPOINT_TTL_DAYS, 30)")

    migrate = sub.add_parser(
        "migrate", help="copy a SQLite installation (registry, checkpoints, Slack state) into MASIS_DATABASE_URL"
    )
    migrate.add_argument("--from", dest="source", type=Path, metavar="DIR",
                         help="the data directory to copy (default MASIS_DATA_DIR)")

    sub.add_parser("serve", help="run the Slack bot (and the HTTP API when MASIS_API_TOKEN is set)")
    eval_cli.add_parser(sub)
    return parser


class StartUp:
    """The cyclic garbage collector stays off while a command starts; then the start-up's objects leave it.

    Starting a `masis ask` builds about a million objects (modules, classes, LangGraph's and pydantic's
    schemas) that live until the process exits and are almost never garbage: the collector's passes over
    them while they load, and its last pass at exit, were ~0.2 s of the command's CPU. `over()`, once the
    engine is open and LangGraph loaded, turns the collector back on for the command's own work and, when
    `main` is the program (its exit follows), first moves those objects out of every later collection
    (`gc.freeze`). Called as a function (`main([...])`), it freezes nothing: a caller that goes on running
    keeps the collector's generations as they were.
    """

    def __init__(self, freeze: bool) -> None:
        self._freeze = freeze
        self._collecting = gc.isenabled()
        gc.disable()

    def over(self) -> None:
        if self._freeze:
            self._freeze = False
            gc.freeze()
        self.close()

    def close(self) -> None:
        if self._collecting:
            gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged file is reported once, in plain words
    redact_logs()
    start_up = StartUp(freeze=argv is None)
    try:
        return _dispatch(args, start_up)
    except MasisError as exc:
        print(f"masis: {redact(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("masis: interrupted", file=sys.stderr)
        return 130
    finally:
        start_up.close()


def _dispatch(args: argparse.Namespace, start_up: StartUp) -> int:
    if args.command in {"serve", "eval"}:  # long-running: the collector is back on before anything loads
        start_up.close()
        if args.command == "eval":
            return eval_cli.run(args)
        from bot.__main__ import main as serve

        return serve([])
    from masis.config import Settings

    settings = Settings()
    if args.command == "gc":
        start_up.close()
        return _gc(settings, args.older_than)
    if args.command == "migrate":
        start_up.close()
        return _migrate(settings, args.source)
    from masis.engine import Engine

    with Engine(settings) as engine:
        if args.command in {"ask", "reply"}:
            engine.graph  # noqa: B018 - loads LangGraph now, so its objects are part of the start-up
        start_up.over()
        if args.command in {"ask", "reply"} and args.json:  # one JSON object: no terminal renderer needed
            print(_answer(engine, args).model_dump_json())
            return 0
        from rich.console import Console

        console = Console()
        if args.command == "ingest":
            return _ingest(engine, console, args)
        if args.command == "docs":
            if args.remove:
                engine.remove_document(args.workspace, args.remove)
                console.print(f"Removed {args.remove} from {args.workspace}.")
                return 0
            documents = engine.documents(args.workspace)
            if args.json:
                print(json.dumps({"workspace_id": args.workspace, "documents": [asdict(d) for d in documents]},
                                 ensure_ascii=False))
                return 0
            from masis.render import print_documents

            print_documents(console, documents)
            return 0
        if args.command == "reindex":
            return _reindex(engine, args.workspace)
        if args.command in {"ask", "reply"}:
            return _show(engine, console, _answer(engine, args))
    return EXIT_USAGE


def _reindex(engine: Engine, workspace: str | None) -> int:
    where = f"workspace {workspace}" if workspace else "every workspace"
    renumbered = engine.renumber_chunks(workspace)
    for (ws, name), moved in renumbered.items():
        print(f"Renumbered {moved} chunk(s) of {name} in {ws}.")
    print(f"Chunk ids in {where} are up to date ({len(renumbered)} document(s) renumbered).")
    upgrade = getattr(engine.store, "upgrade", None)
    if upgrade is not None and upgrade():
        print("The embedded store was rebuilt to weigh BM25 by the registry's statistics (faster queries, same "
              "answers).")
    if engine.embedder is None:
        print("No dense vectors added: hybrid retrieval needs embeddings (set OPENAI_API_KEY, or MASIS_LLM=openai "
              "with OPENAI_BASE_URL, and MASIS_EMBED_MODEL).")
        return 0
    embedded = engine.reindex(workspace)
    print(f"Embedded {embedded} chunk(s) in {where}; retrieval is hybrid (BM25 + dense).")
    return 0


def _answer(engine: Engine, args: argparse.Namespace) -> Outcome:
    if args.command == "ask":
        return engine.ask(args.workspace, " ".join(args.question), thread_id=args.thread, max_retries=args.max_retries)
    return engine.reply(args.thread, " ".join(args.text) or None, choice=args.choice, round=args.round)


def _gc(settings: Settings, older_than: float | None) -> int:
    from masis.records.gc import collect_garbage

    if older_than is not None and not math.isfinite(older_than):  # float() reads "nan", "inf" and "1e400"
        raise MasisError("--older-than must be a finite number of days.")
    if older_than is not None and older_than < 0:
        raise MasisError("--older-than must be 0 days or more.")
    report = collect_garbage(settings, older_than)
    print(
        f"Forgot {report.conversations_forgotten} idle conversations ({report.pending_forgotten} with an "
        f"unanswered question), pruned {report.runs_pruned} runs' checkpoints, forgot "
        f"{report.vectors_forgotten} unused kept vectors; databases "
        f"{report.bytes_before / 1e6:.1f} MB -> {report.bytes_after / 1e6:.1f} MB."
    )
    return 0


MIGRATED_FILES = ("masis.db", "checkpoints.db", "slack.db")


def _migrate(settings: Settings, source: Path | None) -> int:
    """Copy the SQLite files of a data directory into MASIS_DATABASE_URL (masis.records.migrate, bot.migrate)."""
    import sqlite3

    from bot.migrate import migrate_bot_state
    from masis.records.db import Postgres
    from masis.records.migrate import MigrationReport, migrate_checkpoints, migrate_registry
    from masis.records.registry import Registry

    url = settings.postgres_url
    if url is None:
        raise MasisError("masis migrate copies into the PostgreSQL database of MASIS_DATABASE_URL: set it "
                         "(postgresql://user:password@host:5432/db).")
    data_dir = source or settings.data_dir
    files = {name: data_dir / name for name in MIGRATED_FILES if (data_dir / name).is_file()}
    if not files:
        raise MasisError(f"No MASIS installation in {data_dir}: none of {', '.join(MIGRATED_FILES)} is there "
                         "(point --from at the data directory).")
    for name in MIGRATED_FILES:
        if name not in files:
            print(f"{name}: not in {data_dir}, nothing to copy")

    def progress(line: str) -> None:
        print(line, flush=True)

    report = MigrationReport()
    slack = (0, 0)
    postgres = Postgres(url, max_size=2, wait=settings.database_wait_seconds)  # an unreachable server: one line
    registry = Registry(url, wait=settings.database_wait_seconds)
    try:
        if "masis.db" in files:
            migrate_registry(files["masis.db"], registry, report, progress)
        if "checkpoints.db" in files:
            migrate_checkpoints(files["checkpoints.db"], postgres, report, progress)
        if "slack.db" in files:
            slack = migrate_bot_state(files["slack.db"], url, progress)
    except sqlite3.DatabaseError as exc:
        raise MasisError(f"Cannot read the SQLite files in {data_dir}: {exc}") from None
    finally:
        registry.close()
        postgres.close()
    print(
        f"Migrated {data_dir} into PostgreSQL: {report.workspaces} workspaces ({report.documents} documents), "
        f"{report.rows.get('conversations', 0)} conversations, {report.checkpoints} checkpoints of {report.runs} "
        f"runs, {report.rows.get('feedback', 0)} votes, {slack[0]} Slack records; already there: "
        f"{len(report.workspaces_present)} workspaces, {report.rows_present + slack[1]} rows, "
        f"{report.checkpoints_present} checkpoints."
    )
    return 0


def _ingest(engine: Engine, console: Console, args: argparse.Namespace) -> int:
    from rich.markup import escape

    report = ingest_with_progress(engine, console, args.workspace, args.paths, args.by)
    for result in report.results:
        if result.status == "failed":
            console.print(f"[red]✗[/red] {escape(result.name)}: {escape(result.reason or '')}", highlight=False,
                          soft_wrap=True)  # one line per file, whole, even when piped
        else:
            console.print(f"[green]✓[/green] {escape(result.name)}: {result.chunks} chunks ({result.status})",
                          highlight=False, soft_wrap=True)
    console.print(report.summary(), highlight=False, soft_wrap=True)  # last, whatever scrolled by above
    return EXIT_SOME_FAILED if report.failed else 0


def ingest_with_progress(
    engine: Engine, console: Console, workspace: str, paths: Sequence[Path], uploaded_by: str
) -> IngestReport:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task("indexing", total=None)

        def update(done: int, total: int, name: str) -> None:
            progress.update(task, completed=done, total=total, description=f"indexing {name}")

        return engine.ingest_paths(workspace, paths, uploaded_by=uploaded_by, on_progress=update)


def _show(engine: Engine, console: Console, outcome: Outcome) -> int:
    from masis.render import print_outcome

    print_outcome(console, outcome)
    while outcome.status == "needs_clarification" and sys.stdin.isatty():
        outcome = _ask_back(engine, console, outcome)
        print_outcome(console, outcome)
    if outcome.status == "needs_clarification":
        console.print(f"Reply with: masis reply --thread {outcome.thread_id} 'your answer'", highlight=False)
    return 0


def _ask_back(engine: Engine, console: Console, outcome: Outcome) -> Outcome:
    assert outcome.clarification is not None
    about = outcome.clarification.kind == "unclear_reference"
    prefix, verb = ("about:", "about") if about else ("source:", "trust")
    choices = {str(i): f"{prefix}{name}" for i, name in enumerate(outcome.clarification.options, start=1)}
    for key, choice in choices.items():
        console.print(f"  {key}) {verb} {choice.removeprefix(prefix)}", highlight=False)
    if outcome.clarification.draft:
        console.print("  a) use the draft as it is")
    console.print("  c) cancel — or type a clarification")
    reply = console.input("> ").strip()
    if reply in choices:
        return engine.reply(outcome.thread_id, choice=choices[reply])
    if reply in {"a", "c"}:
        return engine.reply(outcome.thread_id, choice="accept" if reply == "a" else "cancel")
    return engine.reply(outcome.thread_id, reply or None, choice=None if reply else "cancel")


if __name__ == "__main__":
    raise SystemExit(main())
