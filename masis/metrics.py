"""MASIS's Prometheus metrics: what is counted and measured, in one registry that `GET /metrics` serves.

Labels are bounded by construction: outcomes, clarification kinds, node names, model roles, configured model
names and file formats are small fixed sets. Workspace ids are user input (any API client can make new
ones), so they label only the queue gauges, and only for the workspaces with work waiting or running: the
`MAX_WORKSPACE_SERIES` busiest are named, the rest summed under `workspace="(other)"`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from masis.fairness import FairPool

REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

MAX_WORKSPACE_SERIES = 20
OTHER_WORKSPACES = "(other)"  # not a workspace id: those start with a letter or digit
# a question's seconds: a cached extractive answer takes milliseconds, a model's retries minutes
SECONDS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)
FORMATS = frozenset({"pdf", "docx", "html", "htm", "md", "markdown", "txt", "csv", "pptx", "xlsx", "rst"})

QUESTIONS = Counter(
    "masis_questions", "Questions and replies finished, by how they ended (error: an exception).",
    ["call", "outcome", "clarification"], registry=REGISTRY,
)
QUESTION_SECONDS = Histogram(
    "masis_question_seconds", "Time to answer a question or reply, from the engine's start to its outcome.",
    ["call"], buckets=SECONDS, registry=REGISTRY,
)
NODE_SECONDS = Histogram(
    "masis_node_seconds", "Time spent in one run of a graph node.", ["node"], buckets=SECONDS, registry=REGISTRY,
)
LLM_REQUESTS = Counter(
    "masis_llm_requests", "Requests to a language model (a retried malformed reply is two).",
    ["role", "model"], registry=REGISTRY,
)
LLM_TOKENS = Counter(
    "masis_llm_tokens", "Tokens the language models reported, prompt and completion.",
    ["role", "model", "kind"], registry=REGISTRY,
)
INGEST_FILES = Counter(
    "masis_ingest_files", "Files through ingest: indexed, unchanged or failed, by file format.",
    ["result", "format"], registry=REGISTRY,
)
INGEST_CHUNKS = Counter("masis_ingest_chunks", "Chunks indexed.", registry=REGISTRY)
QUEUE_WAIT = Histogram(
    "masis_queue_wait_seconds", "Time a job (question, reply, upload) waited for a worker.",
    buckets=SECONDS, registry=REGISTRY,
)
QUEUE_REFUSED = Counter(
    "masis_queue_refused", "Jobs refused because a line was full: the workspace's, or one user's in it.",
    ["scope"], registry=REGISTRY,
)


def record_outcome(call: str, status: str, clarification: str | None) -> None:
    QUESTIONS.labels(call=call, outcome=status, clarification=clarification or "none").inc()


def record_usage(role: str, model: str, prompt_tokens: int, completion_tokens: int) -> None:
    LLM_REQUESTS.labels(role=role, model=model).inc()
    LLM_TOKENS.labels(role=role, model=model, kind="prompt").inc(prompt_tokens)
    LLM_TOKENS.labels(role=role, model=model, kind="completion").inc(completion_tokens)


def file_format(name: str) -> str:
    suffix = PurePath(name).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else "other"


def record_ingest(results: Iterable[Any]) -> None:
    """An ingest report's `FileResult`s (name, status, chunks)."""
    for result in results:
        INGEST_FILES.labels(result=result.status, format=file_format(result.name)).inc()
        if result.status == "indexed":
            INGEST_CHUNKS.inc(result.chunks)


class _QueueCollector(Collector):
    """The queue gauges, read from the live pools when scraped (so a workspace drops out once idle)."""

    def __init__(self) -> None:
        self.pools: weakref.WeakSet[FairPool] = weakref.WeakSet()

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        totals: dict[str, list[int]] = {}
        for pool in list(self.pools):
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


_QUEUES = _QueueCollector()
REGISTRY.register(_QUEUES)


def track_pool(pool: FairPool) -> None:
    """Report `pool`'s lines in the queue gauges while it lives."""
    _QUEUES.pools.add(pool)
