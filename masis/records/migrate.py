"""`masis migrate`: copy a SQLite installation's registry and checkpoints into PostgreSQL, idempotently.

- A workspace's documents and term statistics go whole, in one transaction, and only when PostgreSQL has no
  document of that workspace yet (its counts are sums over its documents: merged into others they would be
  wrong). A second run finds each copied workspace there and skips it.
- Conversations, feedback and in-progress document writes are copied row by row; a row whose key PostgreSQL
  already has stays as it is.
- Each conversation run's checkpoints go through LangGraph's own savers (the two databases store them in
  different shapes): each checkpoint PostgreSQL lacks is written with its pending writes (a paused question's
  clarification among them), so a question waiting for a reply can be answered on PostgreSQL.

The SQLite files are read, never changed, except that a file from an older MASIS is first brought up to date,
as any `masis` command would. The vectors stay where they are (see docs/storage.md).
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from masis.records.db import Postgres, copy_rows
from masis.records.registry import Registry

Progress = Callable[[str], None]
_WORKSPACE_TABLES = ("documents", "doc_term_counts", "document_words", "term_df", "workspace_words", "workspace_chunks")
_ROW_TABLES = ("conversations", "feedback", "document_writes")
CHECKPOINT_PROGRESS_EVERY = 200  # conversation runs between two progress lines


@dataclass
class MigrationReport:
    workspaces: int = 0
    documents: int = 0
    workspaces_present: list[str] = field(default_factory=list)  # already had documents in PostgreSQL
    rows: dict[str, int] = field(default_factory=dict)  # table -> rows copied
    rows_present: int = 0
    runs: int = 0  # conversation runs whose checkpoints were copied (some or all)
    checkpoints: int = 0
    checkpoints_present: int = 0


def open_source(path: Path) -> sqlite3.Connection:
    """A SQLite file, read-only."""
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


def migrate_registry(path: Path, target: Registry, report: MigrationReport, progress: Progress) -> None:
    Registry(path).close()  # an older registry is brought up to date first, as any command would
    source = open_source(path)
    try:
        workspaces = [str(w) for (w,) in source.execute("SELECT DISTINCT workspace_id FROM documents ORDER BY 1")]
        for workspace in workspaces:
            with target.transaction() as conn:
                if conn.execute("SELECT 1 FROM documents WHERE workspace_id = ? LIMIT 1", (workspace,)).fetchone():
                    report.workspaces_present.append(workspace)
                    progress(f"registry: workspace {workspace} already has documents in PostgreSQL: left as it is")
                    continue
                copied = {table: copy_rows(source, conn, table, where="WHERE workspace_id = ?", params=(workspace,))[0]
                          for table in _WORKSPACE_TABLES}
            report.workspaces += 1
            report.documents += copied["documents"]
            progress(f"registry: workspace {workspace}: {copied['documents']} documents")
        for table in _ROW_TABLES:
            with target.transaction() as conn:
                copied, present = copy_rows(source, conn, table)
            report.rows[table] = copied
            report.rows_present += present
            progress(f"registry: {table}: {copied} copied" + (f", {present} already there" if present else ""))
    finally:
        source.close()


def migrate_checkpoints(path: Path, target: Postgres, report: MigrationReport, progress: Progress) -> None:
    from langgraph.checkpoint.sqlite import SqliteSaver

    source = sqlite3.connect(path, check_same_thread=False)
    try:
        reader = SqliteSaver(source)
        reader.setup()  # an older file's columns, as any command would add them
        writer = target.setup_checkpointer()
        runs = [(str(t), str(ns)) for t, ns in source.execute(
            "SELECT DISTINCT thread_id, checkpoint_ns FROM checkpoints ORDER BY thread_id, checkpoint_ns")]
        for done, (run_key, namespace) in enumerate(runs, start=1):
            copied = _copy_run(reader, writer, target, run_key, namespace, report)
            report.runs += copied > 0
            if done % CHECKPOINT_PROGRESS_EVERY == 0 or done == len(runs):
                progress(f"checkpoints: {done} of {len(runs)} conversation runs read")
    finally:
        source.close()


def _copy_run(reader: Any, writer: Any, target: Postgres, run_key: str, namespace: str,
              report: MigrationReport) -> int:
    """Copy one run's checkpoints that PostgreSQL lacks, oldest first; returns how many were copied."""
    with target.pool.connection() as conn:
        present = {row["checkpoint_id"] for row in conn.execute(
            "SELECT checkpoint_id FROM checkpoints WHERE thread_id = %s AND checkpoint_ns = %s", (run_key, namespace))}
    copied = 0
    config = {"configurable": {"thread_id": run_key, "checkpoint_ns": namespace}}
    for saved in reversed(list(reader.list(config))):
        checkpoint_id = saved.checkpoint["id"]
        if checkpoint_id in present:
            report.checkpoints_present += 1
            continue
        parent = (saved.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        at = {"configurable": {"thread_id": run_key, "checkpoint_ns": namespace,
                               **({"checkpoint_id": parent} if parent else {})}}
        # its pending writes first: a run cut off between the two finds the checkpoint missing and writes both
        # again (each write is keyed), never a checkpoint without the writes it had (a paused question's)
        writes: dict[str, list[tuple[str, Any]]] = defaultdict(list)
        for task_id, channel, value in saved.pending_writes or ():
            writes[task_id].append((channel, value))
        own = {"configurable": {"thread_id": run_key, "checkpoint_ns": namespace, "checkpoint_id": checkpoint_id}}
        for task_id, task_writes in writes.items():
            writer.put_writes(own, task_writes, task_id)
        writer.put(at, saved.checkpoint, saved.metadata, dict(saved.checkpoint["channel_versions"]))
        copied += 1
    report.checkpoints += copied
    return copied
