"""What every node receives from the graph's runtime context: its dependencies, never globals."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from masis.config import Settings
from masis.llm.base import LLMProvider
from masis.pause import pause_point
from masis.registry import Registry
from masis.store.base import VectorStore

# called with the stage ("researching", "writing", "auditing", "scoring") and, on a retry's
# "researching", a second argument: why the last draft was retried
ProgressCallback = Callable[..., None]


@dataclass
class AgentContext:
    settings: Settings
    store: VectorStore
    registry: Registry
    llm: LLMProvider
    on_progress: ProgressCallback | None = None

    def progress(self, stage: str, detail: str | None = None) -> None:
        pause_point(f"ask:{stage}")
        if self.on_progress is not None:
            # A progress display must never break an answer.
            with contextlib.suppress(Exception):
                if detail is None:
                    self.on_progress(stage)
                else:
                    self.on_progress(stage, detail)


@contextmanager
def timed(node: str) -> Iterator[dict[str, Any]]:
    """Measure a node; the yielded dict becomes its `latencies_ms` entry."""
    entry: dict[str, Any] = {"node": node}
    start = time.perf_counter()
    try:
        yield entry
    finally:
        entry["ms"] = round((time.perf_counter() - start) * 1000, 2)
