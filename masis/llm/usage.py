"""Token usage of model calls, collected per graph node without threading it through every signature.

A node opens `collect_usage()` around its provider calls; the provider calls `record_usage` after each
HTTP request (a retried malformed reply is two requests). The collector lives in a context variable, so
concurrent questions in other threads never mix their counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from typing import Any

from masis import metrics


@dataclass(frozen=True)
class TokenUsage:
    role: str
    model: str
    prompt_tokens: int
    completion_tokens: int


_collector: ContextVar[list[TokenUsage] | None] = ContextVar("masis_token_usage", default=None)


@contextmanager
def collect_usage() -> Iterator[list[TokenUsage]]:
    calls: list[TokenUsage] = []
    token = _collector.set(calls)
    try:
        yield calls
    finally:
        _collector.reset(token)


def record_usage(role: str, model: str, usage: Mapping[str, Any] | None) -> None:
    """Record one request's `usage_metadata` (input/output tokens); a reply without usage counts 0."""
    usage = usage or {}
    call = TokenUsage(role, model, int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0))
    metrics.record_usage(role, model, call.prompt_tokens, call.completion_tokens)
    calls = _collector.get()
    if calls is not None:
        calls.append(call)


def usage_entries(node: str, calls: Iterable[TokenUsage]) -> list[dict[str, Any]]:
    """The state's `token_usage` entries of one node."""
    return [{"node": node, **asdict(call)} for call in calls]


def usage_totals(calls: Iterable[TokenUsage]) -> dict[str, int]:
    """What a trace entry shows: the node's prompt and completion tokens and its model requests."""
    calls = list(calls)
    return {
        "prompt": sum(c.prompt_tokens for c in calls),
        "completion": sum(c.completion_tokens for c in calls),
        "requests": len(calls),
    }


def token_metrics(entries: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The Outcome's `metrics.tokens`: totals, and per node and per model."""
    total = {"prompt": 0, "completion": 0, "requests": 0}
    by_node: dict[str, dict[str, int]] = {}
    by_model: dict[str, dict[str, int]] = {}
    for entry in entries:
        for bucket in (
            total,
            by_node.setdefault(entry["node"], {"prompt": 0, "completion": 0, "requests": 0}),
            by_model.setdefault(entry["model"], {"prompt": 0, "completion": 0, "requests": 0}),
        ):
            bucket["prompt"] += entry["prompt_tokens"]
            bucket["completion"] += entry["completion_tokens"]
            bucket["requests"] += 1
    return {**total, "by_node": by_node, "by_model": by_model}
