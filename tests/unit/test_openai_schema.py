"""The structured-output schemas sent to OpenAI-compatible servers, and the shared rate limiter (pure)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from masis.judge.findings import Critique, Evaluation
from masis.llm.claims import MAX_CLAIMS, NO_CLAIMS, CitedAnswer, Claim, limit_ids, render
from masis.llm.openai_provider import CompressedEvidence, shared_rate_limiter, strict_schema


def _objects(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append(node)
        for value in node.values():
            found += _objects(value)
    elif isinstance(node, list):
        for item in node:
            found += _objects(item)
    return found


def _has_key(node: Any, key: str) -> bool:
    if isinstance(node, dict):
        return key in node or any(_has_key(v, key) for v in node.values())
    if isinstance(node, list):
        return any(_has_key(v, key) for v in node)
    return False


@pytest.mark.parametrize("model", [Critique, Evaluation, CompressedEvidence, CitedAnswer])
def test_schemas_are_strict_and_carry_no_defaults(model: type[BaseModel]) -> None:
    schema = strict_schema(model)

    objects = _objects(schema)
    assert objects, "at least the root object"
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])
    assert not _has_key(schema, "default")
    assert set(schema["properties"]) == set(model.model_fields)


def test_one_rate_limiter_per_process_and_rate() -> None:
    assert shared_rate_limiter(7) is shared_rate_limiter(7)
    assert shared_rate_limiter(7) is not shared_rate_limiter(8)
    fresh = shared_rate_limiter(9)
    assert fresh.acquire(blocking=False), "the first call goes at once"
    assert not fresh.acquire(blocking=False), "the next waits its turn (60/9 s)"


def test_the_claims_schema_limits_passage_ids_to_the_evidence_and_bounds_the_claims() -> None:
    schema = limit_ids(strict_schema(CitedAnswer), ["q3_report.md#2", "budget.docx#1", "q3_report.md#2"])

    assert schema["$defs"]["Claim"]["properties"]["passage_id"]["enum"] == ["q3_report.md#2", "budget.docx#1"]
    assert schema["properties"]["claims"]["maxItems"] == MAX_CLAIMS
    for obj in _objects(schema):
        assert obj["additionalProperties"] is False and sorted(obj["required"]) == sorted(obj["properties"])


def test_claims_render_as_the_cited_answer() -> None:
    reply = CitedAnswer(claims=[
        Claim(sentence="Gross margin was 61% for the quarter.", passage_id="q3_report.md#2"),
        Claim(sentence="Gross margin was 61% for the quarter.", passage_id="q3_report.md#2"),  # a loop repeats
        Claim(sentence="Revenue was $12.4 million [q3_report.md#2]", passage_id="q3_report.md#2"),
        Claim(sentence="  ", passage_id="q3_report.md#2"),
    ])  # fmt: skip

    assert render(reply) == (
        "Gross margin was 61% for the quarter [q3_report.md#2]. Revenue was $12.4 million [q3_report.md#2]."
    )
    assert render(CitedAnswer(claims=[])) == NO_CLAIMS
