"""What every node receives from the graph's runtime context: its dependencies, never globals."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from masis import metrics
from masis.config import Settings
from masis.judge.findings import Relatedness
from masis.llm.base import LLMProvider
from masis.pause import pause_point
from masis.records.registry import Registry
from masis.store.base import VectorStore

if TYPE_CHECKING:
    from masis.judge.semantic import KeptVectors, SentenceEncoder

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
    # where the sentence encoder keeps the vectors of the passages and sentences it has read (the engine's
    # embeddings.db), so that a passage is read once, not at every question that meets it
    vectors: KeptVectors | None = None

    def encoder(self) -> SentenceEncoder | None:
        """The local sentence encoder, loaded with the first question that needs it (numpy and the weights
        stay out of questions whose words decide), or None when switched off or not installed."""
        from masis.judge import semantic

        return semantic.load(self.settings.semantic)

    def relatedness(self, question: str) -> Relatedness | None:
        """The question's closeness in meaning to each of some texts, on the relevance scale, for a provider
        that reads words only; the encoder loads only if the provider calls it. None when switched off."""
        if not self.settings.semantic:
            return None

        def measure(texts: Sequence[str]) -> list[float]:
            from masis.judge.semantic import relevance_scale

            encoder = self.encoder()
            if encoder is None:
                return [0.0] * len(texts)
            return [relevance_scale(cosine) for cosine in encoder.similarities(question, texts, self.vectors)]

        return measure

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
        seconds = time.perf_counter() - start
        entry["ms"] = round(seconds * 1000, 2)
        metrics.observe_node(node, seconds)
