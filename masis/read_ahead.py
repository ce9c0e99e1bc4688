"""Reading ahead: the sentence encoder reads the passages and sentences of indexed documents in the background and
keeps their vectors (embeddings.db), so that a question meets them kept and reads only itself.

A question whose words fall short has its first candidates read by meaning (`masis.agents.researcher`) and its
candidate sentences weighed by it (`masis.llm.extractive`): 70–100 ms a 256-token passage on one core, most of an
answer's time when nothing is kept. What a question reads depends on the question, but which texts it reads from
does not: a chunk's text, and its sentences as the synthesizer reads them. Those are read here, once, before they
are asked about; a kept vector is the one a question's own reading gives, bit for bit (`semantic.SentenceEncoder`).

Long-running faces start it (the bot and the HTTP API, `Engine.read_ahead`): first every workspace, for the texts
not kept yet, then each upload's documents. `masis ask` and `masis ingest` do not: a short process would spend its
life reading. Questions come first: nothing is read while one is being answered (one text's reading may finish),
and the reading thread runs at the lowest scheduling priority, so on a busy machine it takes what is left.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from masis import metrics

if TYPE_CHECKING:
    from masis.judge.semantic import KeptVectors, SentenceEncoder
    from masis.store.base import VectorStore

log = logging.getLogger(__name__)

LOWEST_PRIORITY = 19  # nice value of the reading thread (Linux schedules threads by their own nice value)

Job = tuple[str, tuple[str, ...] | None]  # a workspace, and its documents to read (None: all of them)


class ReadAhead:
    """A thread that reads the texts of the workspaces and documents it is given, while no question runs."""

    def __init__(
        self,
        store: VectorStore,
        encoder: Callable[[], SentenceEncoder | None],
        kept: KeptVectors,
        *,
        sentences: bool,
    ) -> None:
        self._store = store
        self._encoder = encoder
        self._kept = kept
        self._sentences = sentences  # the extractive synthesizer's sentences too (a model reads them itself)
        self._jobs: deque[Job] = deque()
        self._changed = threading.Condition()
        self._questions = 0
        self._reading = False
        self._closed = False
        self.held_back = False  # waiting for the questions being answered to end
        self.texts_read = 0
        self._thread = threading.Thread(target=self._run, name="masis-read-ahead", daemon=True)
        self._thread.start()

    def submit(self, workspace_id: str, doc_names: Sequence[str] | None = None) -> None:
        """Read the texts of these documents of the workspace (all of them if None) that are not kept yet."""
        job: Job = (workspace_id, tuple(doc_names) if doc_names is not None else None)
        with self._changed:
            if job not in self._jobs:
                self._jobs.append(job)
                self._changed.notify_all()

    @contextlib.contextmanager
    def questions_first(self) -> Iterator[None]:
        """Held while a question is answered: nothing more is read until every such block has ended."""
        with self._changed:
            self._questions += 1
        try:
            yield
        finally:
            with self._changed:
                self._questions -= 1
                self._changed.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything submitted has been read; False if `timeout` (seconds) came first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._closed or not (self._jobs or self._reading), timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Stop after the text being read (the store and the kept vectors must outlive the thread)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed: the default priority
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LOWEST_PRIORITY)
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._closed or bool(self._jobs))
                if self._closed:
                    return
                workspace_id, doc_names = self._jobs.popleft()
                self._reading = True
            try:
                self._read(workspace_id, doc_names)
            except Exception as exc:  # a reading ahead that fails costs speed later, never an answer
                log.warning("reading ahead of %s stopped: %s: %s", workspace_id, type(exc).__name__, exc)
            finally:
                with self._changed:
                    self._reading = False
                    self._changed.notify_all()

    def _read(self, workspace_id: str, doc_names: tuple[str, ...] | None) -> None:
        encoder = self._encoder()
        if encoder is None:
            return
        from masis.llm.extractive import meaning_readings

        for page in self._store.passages(workspace_id, doc_names):
            texts = [*page]
            if self._sentences:
                texts.extend(reading for passage in page for reading in meaning_readings(passage))
            read = encoder.keep(texts, self._kept, between=self._no_question)
            self.texts_read += read
            metrics.count_read_ahead(read)
            if self._closed:
                return

    def _no_question(self) -> bool:
        """Wait while a question is answered; False once closed (stop reading)."""
        with self._changed:
            self.held_back = self._questions > 0
            if self.held_back:
                self._changed.notify_all()
            self._changed.wait_for(lambda: self._closed or self._questions == 0)
            self.held_back = False
            return not self._closed
