"""MASIS's Prometheus metrics: what is counted and measured, in one registry that `GET /metrics` serves.

Off until a server turns them on (`enable`, called where the HTTP routes are built): until then every
`record_*` / `observe_*` is a no-op and prometheus-client is not even imported, so a CLI command pays nothing.

Labels are bounded by construction: outcomes, clarification kinds, node names, model roles, configured model
names and file formats are small fixed sets. Workspace ids are user input (any API client can make new
ones), so they label only the queue gauges, and only for the workspaces with work waiting or running: the
`MAX_WORKSPACE_SERIES` busiest are named, the rest summed under `workspace="(other)"`.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry, Counter, Histogram
    from prometheus_client.core import Metric

    from masis.fairness import FairPool

MAX_WORKSPACE_SERIES = 20
OTHER_WORKSPACES = "(other)"  # not a workspace id: those start with a letter or digit
# a question's seconds: a cached extractive answer takes milliseconds, a model's retries minutes
SECONDS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
FORMATS = frozenset({"pdf", "docx", "html", "htm", "md", "markdown", "txt", "csv", "pptx", "xlsx", "rst"})


@dataclass(frozen=True)
class _Metrics:
    registry: CollectorRegistry
    questions: Counter
    question_seconds: Histogram
    node_seconds: Histogram
    llm_requests: Counter
    llm_tokens: Counter
    ingest_files: Counter
    ingest_chunks: Counter
    queue_wait: Histogram
    queue_refused: Counter
    read_ahead_texts: Counter


_on: _Metrics | None = None
_enabling = threading.Lock()
_pools: weakref.WeakSet[FairPool] = weakref.WeakSet()


def enable() -> CollectorRegistry:
    """Turn the metrics on in this process (once); returns their registry."""
    global _on
    with _enabling:
        if _on is None:
            _on = _build()
        return _on.registry


def _build() -> _Metrics:
    from prometheus_client import (
        CollectorRegistry,
        Counter,
        GCCollector,
        Histogram,
        PlatformCollector,
        ProcessCollector,
    )

    registry = CollectorRegistry(auto_describe=True)
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    registry.register(_QueueCollector())
    return _Metrics(
        registry=registry,
        questions=Counter(
            "masis_questions", "Questions and replies finished, by how they ended (error: an exception).",
            ["call", "outcome", "clarification"], registry=registry),
        question_seconds=Histogram(
            "masis_question_seconds", "Time to answer a question or reply, from the engine's start to its outcome.",
            ["call"], buckets=SECONDS, registry=registry),
        node_seconds=Histogram(
            "masis_node_seconds", "Time spent in one run of a graph node.", ["node"], buckets=SECONDS,
            registry=registry),
        llm_requests=Counter(
            "masis_llm_requests", "Requests to a language model (a retried malformed reply is two).",
            ["role", "model"], registry=registry),
        llm_tokens=Counter(
            "masis_llm_tokens", "Tokens the language models reported, prompt and completion.",
            ["role", "model", "kind"], registry=registry),
        ingest_files=Counter(
            "masis_ingest_files", "Files through ingest: indexed, unchanged or failed, by file format.",
            ["result", "format"], registry=registry),
        ingest_chunks=Counter("masis_ingest_chunks", "Chunks indexed.", registry=registry),
        queue_wait=Histogram(
            "masis_queue_wait_seconds", "Time a job (question, reply, upload) waited for a worker.",
            buckets=SECONDS, registry=registry),
        queue_refused=Counter(
            "masis_queue_refused", "Jobs refused because a line was full: the workspace's, or one user's in it.",
            ["scope"], registry=registry),
        read_ahead_texts=Counter(
            "masis_read_ahead_texts", "Passages and sentences the sentence encoder read ahead of any question.",
            registry=registry),
    )


# --- recording: no-ops while the metrics are off ---------------------------------------------------------

def record_outcome(call: str, status: str, clarification: str | None) -> None:
    if (m := _on) is not None:
        m.questions.labels(call=call, outcome=status, clarification=clarification or "none").inc()


def observe_question(call: str, seconds: float) -> None:
    if (m := _on) is not None:
        m.question_seconds.labels(call=call).observe(seconds)


def observe_node(node: str, seconds: float) -> None:
    if (m := _on) is not None:
        m.node_seconds.labels(node=node).observe(seconds)


def record_usage(role: str, model: str, prompt_tokens: int, completion_tokens: int) -> None:
    if (m := _on) is not None:
        m.llm_requests.labels(role=role, model=model).inc()
        m.llm_tokens.labels(role=role, model=model, kind="prompt").inc(prompt_tokens)
        m.llm_tokens.labels(role=role, model=model, kind="completion").inc(completion_tokens)


def file_format(name: str) -> str:
    suffix = PurePath(name).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else "other"


def record_ingest(results: Iterable[Any]) -> None:
    """An ingest report's `FileResult`s (name, status, chunks)."""
    if (m := _on) is None:
        return
    for result in results:
        m.ingest_files.labels(result=result.status, format=file_format(result.name)).inc()
        if result.status == "indexed":
            m.ingest_chunks.inc(result.chunks)


def observe_queue_wait(seconds: float) -> None:
    if (m := _on) is not None:
        m.queue_wait.observe(seconds)


def count_refusal(scope: str) -> None:
    if (m := _on) is not None:
        m.queue_refused.labels(scope=scope).inc()


def count_read_ahead(texts: int) -> None:
    if (m := _on) is not None and texts:
        m.read_ahead_texts.inc(texts)


def track_pool(pool: FairPool) -> None:
    """Report `pool`'s lines in the queue gauges while it lives."""
    _pools.add(pool)


class _QueueCollector:
    """The queue gauges, read from the live pools when scraped (so a workspace drops out once idle)."""

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        from prometheus_client.core import GaugeMetricFamily

        totals: dict[str, list[int]] = {}
        for pool in list(_pools):
            for workspace, (waiting, running) in pool.snapshot().items():
                entry = totals.setdefault(workspace, [0, 0])
                entry[0] += waiting
                entry[1] += running
        depth = GaugeMetricFamily("masis_queue_depth", "Jobs waiting for a worker, per workspace (the busiest "
                                  f"{MAX_WORKSPACE_SERIES}; the rest as workspace={OTHER_WORKSPACES}).",
                                  labels=["workspace"])
        running = GaugeMetricFamily("masis_queue_running", "Jobs running, per workspace (as masis_queue_depth).",
                                    labels=["workspace"])
        busiest = sorted(totals, key=lambda w: (-sum(totals[w]), w))
        shown, rest = busiest[:MAX_WORKSPACE_SERIES], busiest[MAX_WORKSPACE_SERIES:]
        for workspace in shown:
            depth.add_metric([workspace], totals[workspace][0])
            running.add_metric([workspace], totals[workspace][1])
        if rest:
            depth.add_metric([OTHER_WORKSPACES], sum(totals[w][0] for w in rest))
            running.add_metric([OTHER_WORKSPACES], sum(totals[w][1] for w in rest))
        yield depth
        yield running
