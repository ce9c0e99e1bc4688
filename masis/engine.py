"""The engine's public API: ask, reply, pending, ingest, documents. Every face calls only this.

An Engine owns the vector store, the registry, the language model and the checkpointer: SQLite files in
one data directory, or (`MASIS_DATABASE_URL`) one PostgreSQL database several replicas share. Runs are
serialized per thread (LangGraph does not do that itself): in this process by a lock, across replicas by
a PostgreSQL advisory lock. Uploads, replacements and removals are serialized per document the same way
(`masis.records.document_locks`). The faces that work in the background (Slack, the HTTP API) share the
engine's worker pool (`Engine.pool`), which takes turns between workspaces so one cannot starve another.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from masis import metrics
from masis.agents.context import AgentContext, ProgressCallback
from masis.config import Settings
from masis.errors import (
    DatabaseUnavailableError,
    MasisError,
    NotAnAnswerError,
    NothingPendingError,
    StaleReplyError,
    UnknownDocumentError,
    UnknownThreadError,
)
from masis.ingest.recovery import RecoveryReport, recover
from masis.judge.citations import cited_ids
from masis.llm import make_provider
from masis.llm.base import LLMProvider
from masis.llm.usage import token_metrics
from masis.outcome import Citation, Clarification, Outcome
from masis.pause import pause_point
from masis.records.document_locks import DocumentLocks
from masis.records.locks import KeyedLocks
from masis.records.pg import database_errors
from masis.records.registry import DocumentInfo, Registry, run_key_of, run_number, running_status
from masis.state import MASISInput
from masis.storable import unstorable
from masis.store import open_store
from masis.store.base import VectorStore, tenant_scope
from masis.store.embeddings import CACHE_FILE, CachedEmbedder, VectorCache, make_embedder

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.graph.state import CompiledStateGraph
    from langgraph.types import Command

    from masis.fairness import FairPool
    from masis.ingest.pipeline import IngestProgress, IngestReport, ParseWaiting
    from masis.ingest.sources import FileReader
    from masis.read_ahead import ReadAhead
    from masis.records.db import Postgres

log = logging.getLogger(__name__)
MAX_UPLOADER_CHARS = 100  # as the HTTP API has always cut `uploaded_by`
_NOT_ANSWERS = frozenset({"needs_clarification", "cancelled"})
_STATUS_WORDS = {"needs_clarification": "it is waiting for a reply to its clarifying question; its draft is "
                 "unverified", "cancelled": "it was cancelled", "interrupted": "it was cut off by a restart"}


class Engine:
    def __init__(
        self,
        settings: Settings | None = None,
        *,
        store: VectorStore | None = None,
        llm: LLMProvider | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.llm = llm or make_provider(self.settings)  # first: a misconfigured model opens nothing
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.postgres: Postgres | None = None
        if (url := self.settings.postgres_url) is not None:
            from masis.records.db import Postgres

            self.postgres = Postgres(url, wait=self.settings.database_wait_seconds,
                                     heartbeat=self.settings.replica_heartbeat_seconds)
        try:
            self.registry = Registry(self.settings.registry_target, wait=self.settings.database_wait_seconds)
        except BaseException:
            if self.postgres is not None:
                self.postgres.close()
            raise
        self.embedder: CachedEmbedder | None = None
        try:
            self.embedder = make_embedder(self.settings) if store is None else None
            self.store = store or open_store(self.settings, self.embedder, self.registry)
        except BaseException:
            self.registry.close()
            if self.postgres is not None:
                self.postgres.close()
            if self.embedder is not None:
                self.embedder.close()
            raise
        self._document_locks = DocumentLocks(self.postgres)
        self.recovery: RecoveryReport = recover(self.store, self.registry, self._document_locks)  # a crash's leftovers
        self._checkpoint_conn: sqlite3.Connection | None = None
        if self.postgres is None:
            self._checkpoint_conn = sqlite3.connect(
                self.settings.checkpoint_path, check_same_thread=False, timeout=30
            )
            self._checkpoint_conn.execute("PRAGMA journal_mode=WAL")
            # as the registry: a commit survives the process being killed; the fsync per checkpoint of FULL
            # (about 20 in one question) only guarded against the machine losing power
            self._checkpoint_conn.execute("PRAGMA synchronous=NORMAL")
            self._checkpoint_conn.execute("PRAGMA busy_timeout=30000")
        # LangGraph (~0.5 s to import) loads with the first question, not for `masis docs` or `masis ingest`.
        self._graph: CompiledStateGraph | None = None
        self._checkpointer: BaseCheckpointSaver[Any] | None = None
        self._graph_lock = threading.Lock()
        self._vectors: VectorCache | None = None  # opened with the first question, when the encoder is on
        self._vectors_lock = threading.Lock()
        self._vectors_unavailable = False
        self._reader: ReadAhead | None = None  # reading ahead, once a long-running face asks for it
        if self.postgres is not None:
            # the checkpointer's migrations before this process holds any thread's lock: they CREATE INDEX
            # CONCURRENTLY, which waits for every open transaction, a replica's wait for that lock included
            self._load_graph()
        # loads the graph only if a run was cut off
        self.recovery.settled_runs = self.settle_stale_runs(others_only=False)
        self._thread_locks = KeyedLocks()
        self._pool: FairPool | None = None
        self._pool_lock = threading.Lock()
        self._closed = False

    @property
    def checkpointer(self) -> BaseCheckpointSaver[Any]:
        self._load_graph()
        assert self._checkpointer is not None
        return self._checkpointer

    @property
    def graph(self) -> CompiledStateGraph:
        return self._load_graph()

    def _encoder_vectors(self) -> VectorCache | None:
        """Where the sentence encoder keeps the vectors of the passages it reads: `embeddings.db` in the data
        directory, beside the OpenAI path's embeddings (None with MASIS_SEMANTIC=false)."""
        if not self.settings.semantic:
            return None
        with self._vectors_lock:
            if self._vectors is None and not self._vectors_unavailable:
                try:
                    self._vectors = VectorCache(self.settings.data_dir / CACHE_FILE)
                except sqlite3.Error as exc:  # a cache that cannot be opened costs readings, not answers
                    log.warning("the sentence encoder's vectors cannot be kept in embeddings.db: %s", exc)
                    self._vectors_unavailable = True
            return self._vectors

    def _load_graph(self) -> CompiledStateGraph:
        with self._graph_lock:
            if self._graph is None:
                from masis.agents.graph import build_graph

                if self.postgres is not None:
                    self._checkpointer = self.postgres.setup_checkpointer()
                else:
                    from langgraph.checkpoint.sqlite import SqliteSaver

                    assert self._checkpoint_conn is not None
                    self._checkpointer = SqliteSaver(self._checkpoint_conn)
                self._graph = build_graph(self._checkpointer)
            return self._graph

    @property
    def pool(self) -> FairPool:
        """The worker pool of the faces' background work (`MASIS_WORKERS`), started on first use: a CLI
        command starts no threads."""
        with self._pool_lock:
            if self._pool is None:
                from masis.fairness import FairPool

                s = self.settings
                self._pool = FairPool(s.workers, per_workspace=s.workspace_concurrency or None,
                                      workspace_backlog=s.workspace_backlog, user_backlog=s.user_backlog)
            return self._pool

    # --- lifecycle ---------------------------------------------------------------------------------

    def read_ahead(self) -> ReadAhead | None:
        """Have the sentence encoder read every workspace's passages not kept yet, then each upload's, in the
        background and while no question is answered (`masis.read_ahead`); the bot and the HTTP API call it at
        start. None when the encoder is off (`MASIS_SEMANTIC`, `MASIS_READ_AHEAD`) or its vectors cannot be kept."""
        from masis.judge import semantic
        from masis.llm.extractive import ExtractiveProvider
        from masis.read_ahead import ReadAhead

        kept = self._encoder_vectors() if self.settings.read_ahead else None
        if kept is None:
            return None
        with self._vectors_lock:
            if self._reader is None:
                self._reader = ReadAhead(self.store, lambda: semantic.load(self.settings.semantic), kept,
                                         sentences=isinstance(self.llm, ExtractiveProvider))
                for workspace_id in self.registry.workspaces():
                    self._reader.submit(workspace_id)
        return self._reader

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._reader is not None:  # it reads from the store and writes the kept vectors
            self._reader.close()
        if self._pool is not None:  # running work still uses the stores: let it finish first
            self._pool.shutdown(wait=True)
        self.store.close()
        self.registry.close()
        if self._checkpoint_conn is not None:
            self._checkpoint_conn.close()
        if self.postgres is not None:
            self.postgres.close()
        if self.embedder is not None:
            self.embedder.close()
        if self._vectors is not None:
            self._vectors.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def problem(self) -> str | None:
        """Why this engine cannot recover by itself and its process should be restarted (a liveness probe's
        question), or None. On SQLite there is nothing that could be stuck."""
        return self.postgres.presence.problem() if self.postgres is not None else None

    def settle_stale_runs(self, *, others_only: bool = True) -> list[tuple[str, str]]:
        """Settle the threads a killed process left 'running' for ever; returns (thread, status) of each. While
        this engine runs (`others_only`, the default) its own runs are never stale; at start-up they are."""
        settled = []
        for conversation in self.registry.stale_runs(others_only=others_only):
            status = self._settled_status(conversation.run_key)
            self.registry.set_status(conversation.thread_id, status)
            settled.append((conversation.thread_id, status))
            log.warning("thread %s was being answered when MASIS stopped; marked it %s", conversation.thread_id,
                        status)
        return settled

    # --- questions -----------------------------------------------------------------------------------

    def ask(
        self,
        workspace_id: str,
        question: str,
        *,
        thread_id: str | None = None,
        max_retries: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Outcome:
        """Answer a new question in a workspace: a new run, which, in a thread that had questions, reads the question
        in the context of the thread's earlier turns (`masis.agents.memory`, `masis.agents.reader`)."""
        tenant_scope(workspace_id)  # first, so a missing workspace is reported as such
        thread_id = thread_id or f"local:{uuid.uuid4().hex[:12]}"
        try:
            request = MASISInput(
                user_query=question, workspace_id=workspace_id, thread_id=thread_id, max_retries=max_retries
            )
        except ValidationError as exc:
            raise MasisError(f"Invalid question: {exc.errors()[0]['msg']}") from None
        with self._hold_thread(thread_id):
            history = self._remembered(thread_id, workspace_id)  # before start_run moves the thread on
            conversation = self.registry.start_run(thread_id, workspace_id)
            state: dict[str, Any] = {
                "user_query": request.user_query,
                "history": history,
                "reading": None,
                "reading_about": None,
                "antecedent": None,
                "workspace_id": workspace_id,
                "thread_id": thread_id,
                "max_retries": request.max_retries if request.max_retries is not None else self.settings.retries,
                "attempt": 0,
                "retries": 0,
                "clarification_rounds": 0,
                "best_draft": None,
                "critique": None,
                "retry_inputs": None,
                "clarification": None,
                "source_filter": None,
            }
            return self._run(conversation.run_key, thread_id, workspace_id, state, on_progress, call="ask")

    def reply(
        self,
        thread_id: str,
        text: str | None = None,
        *,
        choice: str | None = None,
        round: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Outcome:
        """Resume a pending clarification with free text or a choice (accept, cancel, source:<doc>).

        With `round`, the reply is for that clarification round only: when another reply has moved the thread
        on (or finished it), this one is refused instead of answering a question its sender never saw."""
        if not (text and text.strip()) and not choice:
            raise MasisError("A reply needs text or a choice (accept, cancel or source:<document>).")
        if problem := unstorable(f"{text or ''}{choice or ''}"):
            raise MasisError(f"Invalid reply: it contains {problem}.")
        with self._hold_thread(thread_id):
            conversation = self.registry.conversation(thread_id)
            interrupts = self._interrupts(conversation.run_key) if conversation is not None else ()
            if conversation is None or not interrupts:
                raise NothingPendingError(thread_id)
            pending_round = Clarification.model_validate(interrupts[0].value).round
            if round is not None and round != pending_round:
                raise StaleReplyError(thread_id, round, pending_round)
            from langgraph.types import Command

            resume = {"choice": choice} if choice else {"text": text}
            self.registry.set_status(thread_id, running_status())  # a crash now leaves it running, not pending
            return self._run(conversation.run_key, thread_id, conversation.workspace_id, Command(resume=resume),
                             on_progress, call="reply")

    def pending(self, thread_id: str) -> Clarification | None:
        conversation = self.registry.conversation(thread_id)
        if conversation is None:
            return None
        interrupts = self._interrupts(conversation.run_key)
        return Clarification.model_validate(interrupts[0].value) if interrupts else None

    def workspace_of(self, thread_id: str) -> str | None:
        conversation = self.registry.conversation(thread_id)
        return conversation.workspace_id if conversation else None

    def record_feedback(self, thread_id: str, user_id: str, value: str, *, run: int | None = None) -> int:
        """A 👍 / 👎 on one answer of a thread: `run` is the Outcome's `run` (default: the latest question).
        A user's later vote on the same answer replaces their earlier one. Returns the run voted on."""
        if value not in {"up", "down"}:
            raise MasisError("Feedback is 'up' or 'down'.")
        conversation = self.registry.conversation(thread_id)
        if conversation is None:
            raise UnknownThreadError(f"No thread {thread_id}.")
        run = conversation.runs if run is None else run
        if not 1 <= run <= conversation.runs:
            raise UnknownThreadError(
                f"Thread {thread_id} has no answer {run}; its answers are numbered 1 to {conversation.runs}."
            )
        # The latest run's state is the registry's; an earlier one's is its checkpoint (until `masis gc`
        # prunes it: an earlier run whose state is gone can no longer be told from an answer).
        status = conversation.status if run == conversation.runs else \
            self._settled_status(run_key_of(thread_id, run))
        if status != "answered" and (run == conversation.runs or status in _NOT_ANSWERS):
            raise NotAnAnswerError(
                f"Question {run} of thread {thread_id} has no answer to rate "
                f"({_STATUS_WORDS.get(status, 'it is still being answered')})."
            )
        self.registry.record_feedback(thread_id, run, user_id, value)
        return run

    # --- documents -------------------------------------------------------------------------------------

    def ingest(
        self,
        workspace_id: str,
        files: Sequence[tuple[str, bytes | FileReader]],
        *,
        uploaded_by: str = "cli",
        on_progress: IngestProgress | None = None,
        on_wait: ParseWaiting | None = None,
    ) -> IngestReport:
        """Index `files` (name and bytes, or name and a reader of the bytes) into the workspace. `on_progress`
        is told each file's result; `on_wait` when a file waits for a free parser, and its place in line."""
        from masis.ingest.pipeline import ingest_files  # the loaders and parsers: not for a question

        tenant_scope(workspace_id)
        _check_uploader(uploaded_by)
        report = ingest_files(
            store=self.store,
            registry=self.registry,
            settings=self.settings,
            workspace_id=workspace_id,
            files=files,
            uploaded_by=uploaded_by,
            locks=self._document_locks,
            on_progress=on_progress,
            embedder=self.embedder,
            on_wait=on_wait,
        )
        metrics.record_ingest(report.results)
        if self._reader is not None and (indexed := [result.name for result in report.indexed]):
            self._reader.submit(workspace_id, indexed)
        return report

    def ingest_paths(
        self,
        workspace_id: str,
        paths: Sequence[Path],
        *,
        uploaded_by: str = "cli",
        on_progress: IngestProgress | None = None,
        on_wait: ParseWaiting | None = None,
    ) -> IngestReport:
        """Ingest files and (recursively) the files inside directories, reading each when its turn comes; a
        file over `MASIS_MAX_FILE_BYTES` is refused without being read."""
        from masis.ingest.sources import not_a_regular_file, path_reader

        tenant_scope(workspace_id)  # before any file is read
        _check_uploader(uploaded_by)
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files.extend(sorted(p for p in path.rglob("*") if p.is_file() and not p.name.startswith(".")))
            elif path.is_file():
                files.append(path)
            elif path.exists() and (problem := not_a_regular_file(path.stat().st_mode)):
                raise MasisError(f"{path}: {problem}")
            else:
                raise MasisError(f"{path}: no such file or directory")
        limit = self.settings.max_file_bytes
        return self.ingest(
            workspace_id,
            [(p.name, path_reader(p, limit)) for p in files],
            uploaded_by=uploaded_by,
            on_progress=on_progress,
            on_wait=on_wait,
        )

    def documents(self, workspace_id: str) -> list[DocumentInfo]:
        tenant_scope(workspace_id)
        return self.registry.documents(workspace_id)

    def reindex(self, workspace_id: str | None = None) -> int:
        """Add dense vectors to the chunks that lack them (one workspace, or all); returns how many."""
        if workspace_id is not None:
            tenant_scope(workspace_id)
        reindex = getattr(self.store, "reindex", None)
        if reindex is None or self.embedder is None:
            raise MasisError(
                "Reindexing needs embeddings: set OPENAI_API_KEY (or MASIS_LLM=openai with OPENAI_BASE_URL) "
                "and MASIS_EMBED_MODEL."
            )
        return int(reindex(workspace_id))

    def renumber_chunks(self, workspace_id: str | None = None) -> dict[tuple[str, str], int]:
        """Give every document's chunks (one workspace, or all) the ids of `masis.chunk_ids`: stores written by
        an older MASIS hold lossy ids that two documents could share. Returns the chunks renumbered per
        (workspace, document), for the documents that had any."""
        if workspace_id is not None:
            tenant_scope(workspace_id)
        workspaces = [workspace_id] if workspace_id is not None else sorted(self.registry.chunk_totals())
        renumbered: dict[tuple[str, str], int] = {}
        for workspace in workspaces:
            for doc in self.registry.documents(workspace):
                with self._document_locks.hold(workspace, [doc.name]):
                    if moved := self.store.renumber_document(workspace, doc.name):
                        renumbered[(workspace, doc.name)] = moved
        return renumbered

    def remove_document(self, workspace_id: str, name: str, *, wait: bool = True) -> None:
        """Remove a document, every version of it. An upload or removal of it under way goes first; with
        `wait=False`, that raises `DocumentBusyError` instead of waiting for it."""
        tenant_scope(workspace_id)
        from masis.ingest.pipeline import document_name

        name = document_name(name)
        with self._document_locks.hold(workspace_id, [name], wait=wait):
            if self.registry.document(workspace_id, name) is None:
                known = ", ".join(d.name for d in self.registry.documents(workspace_id)) or "none"
                raise UnknownDocumentError(f"No document named {name!r} in this workspace (documents: {known}).")
            pause_point("remove:checked")
            self.store.delete_document(workspace_id, name)
            self.registry.delete_document(workspace_id, name)

    # --- internals -------------------------------------------------------------------------------------

    def _checkpoints(self) -> contextlib.AbstractContextManager[None]:
        """Around the checkpointer's calls: on PostgreSQL an outage is `DatabaseUnavailableError`."""
        return database_errors() if self.postgres is not None else contextlib.nullcontext()

    @contextlib.contextmanager
    def _hold_thread(self, thread_id: str) -> Iterator[None]:
        """The thread's lock in this process, then (on PostgreSQL) across replicas."""
        with self._thread_locks.hold(thread_id):
            if self.postgres is None:
                yield
            else:
                with self.postgres.thread_lock(thread_id):
                    yield

    def _remembered(self, thread_id: str, workspace_id: str) -> list[Any]:
        """The thread's earlier turns, from its latest run's checkpoint; none for a new thread or another
        workspace's."""
        conversation = self.registry.conversation(thread_id)
        if conversation is None or conversation.workspace_id != workspace_id:
            return []
        from masis.agents.memory import remembered

        return remembered(self.graph.get_state(self._config(conversation.run_key)).values, workspace_id)

    def _settled_status(self, run_key: str) -> str:
        """A run's status from its last checkpoint: paused on a question, finished, or cut off part-way
        ('interrupted': a new question in the thread starts afresh)."""
        with self._checkpoints():
            snapshot = self.graph.get_state(self._config(run_key))
        if snapshot.interrupts:
            return "needs_clarification"
        if snapshot.values and not snapshot.next:
            return str(snapshot.values.get("status") or "answered")
        return "interrupted"

    def _config(self, run_key: str) -> dict[str, Any]:
        return {"configurable": {"thread_id": run_key}, "recursion_limit": self.settings.recursion_limit}

    def _interrupts(self, run_key: str) -> Sequence[Any]:
        with self._checkpoints():
            return self.graph.get_state(self._config(run_key)).interrupts

    def _run(
        self,
        run_key: str,
        thread_id: str,
        workspace_id: str,
        graph_input: dict[str, Any] | Command,
        on_progress: Callable[[str], None] | None,
        *,
        call: str,
    ) -> Outcome:
        context = AgentContext(
            settings=self.settings, store=self.store, registry=self.registry, llm=self.llm, on_progress=on_progress,
            vectors=self._encoder_vectors(),
        )
        config = self._config(run_key)
        started = time.perf_counter()
        questions_first = self._reader.questions_first() if self._reader is not None else contextlib.nullcontext()
        try:
            with questions_first, self._checkpoints():
                # the state is saved when the run ends: answered, paused on a question or failed. A run cut off
                # part-way leaves its thread as it was before (no answer; a pending question stays pending), which a
                # checkpoint of every step would not change, at a sixth of an ask's time
                self.graph.invoke(graph_input, config, context=context, durability="exit")
        except DatabaseUnavailableError:
            raise  # its status cannot be written either: the run stays 'running' until the next start settles it
        except BaseException:
            metrics.record_outcome(call, "error", None)
            with contextlib.suppress(Exception):  # the run's own error is the one to report
                self.registry.set_status(thread_id, self._settled_status(run_key))
            raise
        seconds = time.perf_counter() - started
        with self._checkpoints():
            snapshot = self.graph.get_state(config)
        outcome = build_outcome(snapshot.values, snapshot.interrupts, thread_id, workspace_id,
                                round(seconds * 1000, 2), run=run_number(run_key))
        self.registry.set_status(thread_id, outcome.status)
        metrics.record_outcome(call, outcome.status, outcome.clarification.kind if outcome.clarification else None)
        metrics.observe_question(call, seconds)
        return outcome


def _check_uploader(uploaded_by: str) -> None:
    """Who uploaded is shown beside each document (`masis docs`, Slack, the API): it must show as itself."""
    from masis.ingest.pipeline import text_problem

    if not uploaded_by.strip() or len(uploaded_by) > MAX_UPLOADER_CHARS:
        raise MasisError(f"The uploader's name must be 1-{MAX_UPLOADER_CHARS} characters.")
    if problem := text_problem(uploaded_by):
        raise MasisError(f"The uploader's name contains {problem}; use plain text.")


def build_outcome(
    values: dict[str, Any],
    interrupts: Sequence[Any],
    thread_id: str,
    workspace_id: str,
    elapsed_ms: float,
    run: int = 1,
) -> Outcome:
    clarification = Clarification.model_validate(interrupts[0].value) if interrupts else None
    best = values.get("best_draft")
    if clarification is not None:
        answer = best["answer"] if best else None
        confidence = best["confidence"] if best else None
        evaluation = best["evaluation"] if best else None
        context = best["evidence"] if best else []
        status = "needs_clarification"
    else:
        answer = values.get("answer")
        confidence = values.get("confidence")
        evaluation = values.get("evaluation")
        context = values.get("context") or []
        status = values.get("status") or "answered"
        if status == "cancelled":
            answer, confidence = None, None
    by_id = {chunk["chunk_id"]: chunk for chunk in context}
    citations = [
        Citation(
            number=number,
            chunk_id=chunk_id,
            doc_name=by_id[chunk_id]["doc_name"],
            page=by_id[chunk_id]["page"],
            section=by_id[chunk_id]["section"],
            text=by_id[chunk_id]["text"],
        )
        for number, chunk_id in enumerate((c for c in cited_ids(answer or "") if c in by_id), start=1)
    ]
    metrics = {
        "llm_calls": values.get("llm_calls", 0),
        "retrieval_calls": values.get("retrieval_calls", 0),
        "confidence_history": values.get("confidence_history", []),
        "retry_reasons": values.get("retry_reasons", []),
        "dismissed_findings": values.get("dismissed_findings", []),
        "last_citation_audit": values.get("citation_audit"),
        "attempts": values.get("attempt", 0),
        "retries": values.get("retries", 0),
        "clarification_rounds": values.get("clarification_rounds", 0),
        "candidates_found": values.get("candidates_found", 0),
        "evidence_chunks": len(values.get("evidence") or []),
        "latencies_ms": values.get("latencies_ms", []),
        "tokens": token_metrics(values.get("token_usage", [])),
        "total_ms": elapsed_ms,
    }
    return Outcome(
        status=status,
        thread_id=thread_id,
        workspace_id=workspace_id,
        run=run,
        question=values.get("user_query", ""),
        reading=values.get("reading"),
        answer=answer,
        confidence=None if confidence is None else round(float(confidence), 4),
        citations=citations,
        clarification=clarification,
        evaluation=evaluation,
        critique=values.get("critique"),
        requires_human_review=bool(values.get("requires_human_review")) or clarification is not None,
        warning=values.get("warning"),
        trace=values.get("trace", []),
        metrics=metrics,
    )
