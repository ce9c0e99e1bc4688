"""The synthesizer's structured reply: the answer as claims, each naming its passage by an id the schema limits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from masis.judge.attribution import cite
from masis.judge.citations import strip_citations

MAX_CLAIMS = 6  # the schema's maxItems: a model that loops stops at the sixth claim
# What an answer with no claim says: a hedge, so it is never answered (it cites nothing) and never empty.
NO_CLAIMS = "The documents do not answer this question."


class Claim(BaseModel):
    sentence: str = Field(description="One short sentence stating what the passage says, figures as written there")
    passage_id: str = Field(description="The id of the passage the sentence comes from")


class CitedAnswer(BaseModel):
    """The answer as claims, each with the id of the passage it comes from."""

    claims: list[Claim] = Field(description="The answer's claims; none when the passages do not answer the question")


def limit_ids(schema: dict[str, Any], ids: Sequence[str]) -> dict[str, Any]:
    """`CitedAnswer`'s strict JSON schema with `passage_id` limited to `ids` (an `enum`, which OpenAI, llama.cpp,
    vLLM and Ollama enforce while the model writes) and at most `MAX_CLAIMS` claims."""
    claim = schema["$defs"]["Claim"]["properties"]
    claim["passage_id"] = {**claim["passage_id"], "enum": list(dict.fromkeys(ids))}
    schema["properties"]["claims"]["maxItems"] = MAX_CLAIMS
    return schema


def render(answer: CitedAnswer) -> str:
    """The claims as the cited answer the rest of MASIS reads: "sentence [passage_id]." each, repeats dropped."""
    sentences: list[str] = []
    for claim in answer.claims[:MAX_CLAIMS]:
        text = " ".join(strip_citations(claim.sentence).split())
        if text.strip(".!? ") and (line := cite(text, claim.passage_id.strip())) not in sentences:
            sentences.append(line)
    return " ".join(sentences) or NO_CLAIMS
