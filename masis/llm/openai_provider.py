"""The OpenAI provider: langchain-openai chat models on OpenAI or any OpenAI-compatible server.

- synthesizer and compression on `MASIS_SYNTH_MODEL`, critic and evaluator on `MASIS_AUDIT_MODEL`;
- the audit roles ask for structured output (`Critique`, `Evaluation`) with a strict JSON schema, as
  `response_format` (json_schema, the default) or as a forced tool call (function_calling), and validate
  the reply themselves: a malformed reply is asked for once more, then becomes a failed audit (confidence
  0, retry requested), never an exception;
- every model shares one process-wide `InMemoryRateLimiter` of `MAX_CALLS_PER_MINUTE`;
- the openai client retries 429 (honouring `Retry-After`), 5xx, connection errors and timeouts with
  exponential backoff (`MASIS_LLM_MAX_RETRIES`, `MASIS_LLM_TIMEOUT`); what still fails is one
  `LLMUnavailableError` that names the model and the reason, never the key;
- each request's `usage_metadata` is recorded for the node's token metrics (`masis.llm.usage`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.rate_limiters import InMemoryRateLimiter
from langchain_core.runnables import Runnable
from langchain_openai import ChatOpenAI
from openai.lib._pydantic import to_strict_json_schema
from pydantic import BaseModel, Field, SecretStr, ValidationError

from masis import prompts
from masis.config import Settings
from masis.errors import MasisError
from masis.llm.base import Critique, Evaluation
from masis.llm.extractive import ExtractiveProvider
from masis.llm.usage import record_usage
from masis.state import EvidenceChunk
from masis.text import split_sentences
from masis.untrusted import Fence

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

STRUCTURED_ATTEMPTS = 2  # a malformed structured reply is asked for once more, then the audit fails


class LLMUnavailableError(MasisError):
    """The model could not be reached or refused the request, after the client's retries."""


class Passage(BaseModel):
    chunk_id: str
    text: str = Field(description="Sentences copied verbatim from the passage")


class CompressedEvidence(BaseModel):
    """The passages' relevant sentences, verbatim."""

    passages: list[Passage] = Field(default_factory=list)


# --- the process-wide rate limit ----------------------------------------------------------------------

_limiters: dict[int, InMemoryRateLimiter] = {}
_limiters_lock = threading.Lock()


def shared_rate_limiter(calls_per_minute: int) -> InMemoryRateLimiter:
    """One token bucket per process (per configured rate) that every model of every engine shares.

    The bucket holds one call and starts full: the first call goes at once, the next ones are spaced
    60 / `calls_per_minute` seconds apart, so no minute ever sees more than the budget (plus the first).
    """
    rate = max(1, int(calls_per_minute))
    with _limiters_lock:
        limiter = _limiters.get(rate)
        if limiter is None:
            limiter = InMemoryRateLimiter(
                requests_per_second=rate / 60.0, check_every_n_seconds=min(0.05, 30.0 / rate), max_bucket_size=1
            )
            limiter.available_tokens = 1.0  # langchain's bucket starts empty; ours lets the first call through
            _limiters[rate] = limiter
    return limiter


def api_key(settings: Settings) -> SecretStr:
    if settings.openai_api_key is not None:
        return settings.openai_api_key
    if settings.openai_base_url:
        return SecretStr("unused")  # local OpenAI-compatible servers (Ollama, vLLM) accept any key
    raise MasisError(
        "MASIS_LLM=openai needs OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server "
        "(or use MASIS_LLM=extractive to run offline)."
    )


def _chat_model(settings: Settings, model: str, limiter: InMemoryRateLimiter) -> ChatOpenAI:
    return ChatOpenAI(
        model=model,
        api_key=api_key(settings),
        base_url=settings.openai_base_url,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        rate_limiter=limiter,
        temperature=0,
    )


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model` as an OpenAI strict JSON schema: every property required, no extra properties, and no
    `default` keywords (OpenAI's strict mode rejects them; the reply must carry every field anyway)."""

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {key: strip(value) for key, value in node.items() if key != "default"}
        if isinstance(node, list):
            return [strip(item) for item in node]
        return node

    return strip(to_strict_json_schema(model))


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    """The strict schema in the shape `with_structured_output` takes for each method."""
    description = (model.__doc__ or model.__name__).strip().splitlines()[0]
    return {"name": model.__name__, "description": description, "schema": strict_schema(model)}


def _structured(chat: BaseChatModel, model: type[BaseModel], method: str) -> Runnable:
    schema = _schema(model)
    if method == "function_calling":
        tool = {"name": schema["name"], "description": schema["description"], "parameters": schema["schema"]}
        return chat.with_structured_output(tool, method="function_calling", include_raw=True, strict=True)
    return chat.with_structured_output({**schema, "strict": True}, method="json_schema", include_raw=True)


class OpenAIProvider:
    """The four roles on langchain-openai chat models."""

    name = "openai"
    compression_uses_model = True

    def __init__(self, settings: Settings, *, rate_limiter: InMemoryRateLimiter | None = None) -> None:
        self.settings = settings
        limiter = rate_limiter or shared_rate_limiter(settings.max_calls_per_minute)
        self.synth_model = settings.synth_model
        self.audit_model = settings.audit_model
        self._synth = _chat_model(settings, settings.synth_model, limiter)
        audit = _chat_model(settings, settings.audit_model, limiter)
        method = settings.structured_output
        self._critic = _structured(audit, Critique, method)
        self._evaluator = _structured(audit, Evaluation, method)
        self._compressor = _structured(self._synth, CompressedEvidence, method)
        self._server = _host(settings.openai_base_url)

    # --- the roles -------------------------------------------------------------------------------------

    def synthesize(self, question: str, evidence: Sequence[EvidenceChunk], feedback: Critique | None = None) -> str:
        fence = Fence.new()
        messages = [
            SystemMessage(prompts.SYNTHESIZER_SYSTEM.format(**prompts.data_rule(fence))),
            HumanMessage(
                prompts.SYNTHESIZER_USER.format(
                    question=question,
                    evidence=prompts.evidence_block(evidence, fence),
                    feedback=prompts.feedback_text(feedback),
                )
            ),
        ]
        reply = self._call(self._synth, self.synth_model, messages)
        assert isinstance(reply, AIMessage)
        record_usage("synthesize", self.synth_model, reply.usage_metadata)
        return reply.text.strip()

    def compress(self, question: str, evidence: Sequence[EvidenceChunk], max_chars: int) -> list[EvidenceChunk]:
        """The model picks each passage's relevant sentences; only sentences really in that passage are
        kept (a model cannot rewrite evidence here). An unreadable reply falls back to the extractive cut."""
        fence = Fence.new()
        messages = [
            SystemMessage(prompts.COMPRESSOR_SYSTEM.format(max_chars=max_chars, **prompts.data_rule(fence))),
            HumanMessage(
                prompts.COMPRESSOR_USER.format(question=question, evidence=prompts.evidence_block(evidence, fence))
            ),
        ]
        result = self._structured_call(self._compressor, CompressedEvidence, self.synth_model, "compress", messages)
        if result is None:
            return ExtractiveProvider().compress(question, evidence, max_chars)
        by_id = {chunk["chunk_id"]: chunk for chunk in evidence}
        budget = max_chars
        kept: list[EvidenceChunk] = []
        for passage in result.passages:
            chunk = by_id.get(passage.chunk_id)
            if chunk is None:
                continue
            source = " ".join(chunk["text"].split())
            verbatim = [s for s in split_sentences(passage.text) if s in source]
            text = " ".join(verbatim)
            if not text or len(text) > budget:
                continue
            budget -= len(text)
            kept.append({**chunk, "text": text})
        return kept

    def critique(self, question: str, answer: str, evidence: Sequence[EvidenceChunk]) -> Critique:
        fence = Fence.new()
        messages = [
            SystemMessage(prompts.CRITIC_SYSTEM.format(**prompts.data_rule(fence))),
            HumanMessage(
                prompts.CRITIC_USER.format(
                    question=question,
                    evidence=prompts.evidence_block(evidence, fence),
                    answer=prompts.draft_block(answer, fence),
                )
            ),
        ]
        result = self._structured_call(self._critic, Critique, self.audit_model, "critique", messages)
        if result is None:
            return Critique(
                confidence=0.0,
                needs_retry=True,
                reasoning="The audit failed: the audit model's reply could not be read as a critique.",
            )
        return result

    def evaluate(self, question: str, answer: str, evidence: Sequence[EvidenceChunk], critique: Critique) -> Evaluation:
        fence = Fence.new()
        messages = [
            SystemMessage(prompts.EVALUATOR_SYSTEM.format(**prompts.data_rule(fence))),
            HumanMessage(
                prompts.EVALUATOR_USER.format(
                    question=question,
                    evidence=prompts.evidence_block(evidence, fence),
                    answer=prompts.draft_block(answer, fence),
                    critique=prompts.critique_summary(critique),
                )
            ),
        ]
        result = self._structured_call(self._evaluator, Evaluation, self.audit_model, "evaluate", messages)
        if result is None:
            return Evaluation(reasoning="The evaluation failed: the audit model's reply could not be read as scores.")
        return result

    # --- transport -----------------------------------------------------------------------------------

    def _call(self, runnable: Runnable, model: str, messages: list[Any]) -> Any:
        try:
            return runnable.invoke(messages)
        except openai.APIError as exc:
            raise LLMUnavailableError(self._unavailable(model, exc)) from None

    def _structured_call(
        self, runnable: Runnable, schema: type[T], model: str, role: str, messages: list[Any]
    ) -> T | None:
        """The parsed reply, or None after `STRUCTURED_ATTEMPTS` unreadable ones."""
        for attempt in range(1, STRUCTURED_ATTEMPTS + 1):
            try:
                result = self._call(runnable, model, messages)
            except (ValueError, ValidationError) as exc:  # a reply the client itself could not decode
                log.warning("%s: unreadable reply from %s (attempt %d): %s", role, model, attempt, type(exc).__name__)
                record_usage(role, model, None)
                continue
            raw = result.get("raw")
            record_usage(role, model, getattr(raw, "usage_metadata", None))
            parsed = result.get("parsed")
            # langchain's JSON parser also accepts a truncated object (partial parsing), and the schema is
            # strict, so a reply missing any field is as unreadable as broken JSON.
            if (
                result.get("parsing_error") is None
                and isinstance(parsed, dict)
                and parsed.keys() >= schema.model_fields.keys()
            ):
                try:
                    return schema.model_validate(parsed)
                except ValidationError:
                    pass
            log.warning("%s: malformed structured reply from %s (attempt %d)", role, model, attempt)
        return None

    def _unavailable(self, model: str, exc: openai.APIError) -> str:
        if isinstance(exc, openai.APITimeoutError):
            reason = f"no reply within {self.settings.llm_timeout:g} s"
        elif isinstance(exc, openai.APIConnectionError):
            reason = "could not connect"
        elif isinstance(exc, openai.AuthenticationError):
            reason = "the API key was refused (HTTP 401); check OPENAI_API_KEY"
        elif isinstance(exc, openai.NotFoundError):
            reason = "HTTP 404: unknown model or wrong OPENAI_BASE_URL"
        elif isinstance(exc, openai.APIStatusError):
            reason = f"HTTP {exc.status_code}"
        else:
            reason = type(exc).__name__
        retries = self.settings.llm_max_retries
        return (
            f"The language model {model} at {self._server} did not answer ({reason}) after {retries} "
            "retries; try again later, or check OPENAI_BASE_URL and the model names."
        )


def _host(base_url: str | None) -> str:
    if not base_url:
        return "api.openai.com"
    parts = urlsplit(base_url)
    return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else "the configured server"
