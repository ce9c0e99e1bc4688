"""The OpenAI provider: langchain-openai chat models on OpenAI or any OpenAI-compatible server.

- synthesizer and compression on `MASIS_SYNTH_MODEL`, critic and evaluator on `MASIS_AUDIT_MODEL`;
- every request carries `max_tokens` (per role, `MASIS_*_MAX_TOKENS`); a reply cut off there
  (`finish_reason=length`) is a failed attempt, never accepted text;
- the audit roles ask for structured output (`Critique`, `Evaluation`) with a strict JSON schema, as
  `response_format` (json_schema, the default) or as a forced tool call (function_calling; a call that a
  server answers as JSON content is accepted when it validates), and validate the reply themselves. A
  failed attempt is asked for once more with a repair message quoting what was wrong; a second failure
  of the critic is one `LLMReplyError` sentence for the user (an audit that failed is never a critique),
  of the evaluator the deterministic scores, of compression the extractive cut;
- every model shares one process-wide `InMemoryRateLimiter` of `MAX_CALLS_PER_MINUTE`;
- the openai client retries 429 (honouring `Retry-After`), 5xx, connection errors and timeouts with
  exponential backoff (`MASIS_LLM_MAX_RETRIES`, `MASIS_LLM_TIMEOUT`); what still fails (any `openai`
  error) is one `LLMUnavailableError` that names the model, quotes the server's own message and counts
  the requests really sent, never a secret (`masis.redact`: the configured key by its value, whatever
  its shape); it says whether the model was unreachable or overloaded (`unavailable`, `retry_after`);
- each request's `usage_metadata` is recorded for the node's token metrics (`masis.llm.usage`).
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
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

from masis.config import Settings
from masis.errors import MasisError, UpstreamError
from masis.judge.findings import Critique, Evaluation, Relatedness
from masis.judge.reading import Earlier, Reading
from masis.judge.sentences import split_sentences
from masis.llm import claims, failures, prompts
from masis.llm.extractive import ExtractiveProvider
from masis.llm.untrusted import Fence
from masis.llm.usage import record_usage
from masis.redact import redact
from masis.state import EvidenceChunk

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

ATTEMPTS = 2  # a failed reply (cut off, malformed) is asked for once more, with a repair message
_REPLY_QUOTE_CHARS = 1500  # how much of a malformed reply the repair message shows the model
_SERVER_MESSAGE_CHARS = 300


class LLMUnavailableError(UpstreamError):
    """The model could not be reached or refused the request, after the client's retries."""


class LLMReplyError(UpstreamError):
    """The model answered, but with nothing usable (cut off at `max_tokens`, unreadable), twice."""


@dataclass(frozen=True)
class _Failed:
    """Why one attempt's reply could not be used, and the reply itself (for the repair message)."""

    reason: str
    reply: str = ""
    cut_off: bool = False


_REPAIR_CUT_OFF = (
    "Your reply was cut off at the {limit}-token limit before it was complete. Reply again, much shorter{shape}."
)
_REPAIR_MALFORMED = (
    "Your reply could not be read as a {name} object ({reason}). Reply again with only one JSON object, no "
    "prose and no code fence, with exactly these fields: {fields}. Keep every list short."
)


class Passage(BaseModel):
    chunk_id: str
    text: str = Field(description="Sentences copied verbatim from the passage")


class CompressedEvidence(BaseModel):
    """The passages' relevant sentences, verbatim."""

    passages: list[Passage] = Field(default_factory=list)


class FollowUp(BaseModel):
    """A follow-up question read in its conversation."""

    question: str = Field(description="The question as a standalone question (unchanged when it stands alone)")
    depends_on_context: bool = Field(description="Whether the earlier turns were needed to read it")
    unclear: str = Field("", description="The word whose meaning the earlier turns do not settle, or empty")
    candidates: list[str] = Field(default_factory=list, description="What the unclear word could mean")


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


def _chat_model(settings: Settings, model: str, limiter: InMemoryRateLimiter, max_tokens: int) -> ChatOpenAI:
    return ChatOpenAI(
        model=model,
        api_key=api_key(settings),
        base_url=settings.openai_base_url,
        timeout=settings.llm_timeout,
        max_retries=settings.llm_max_retries,
        rate_limiter=limiter,
        temperature=0,
        max_tokens=max_tokens,  # sent as max_completion_tokens (llama.cpp, vLLM and OpenAI read it)
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


def _structured(
    chat: BaseChatModel, model: type[BaseModel], method: str, schema_of_request: dict[str, Any] | None = None
) -> Runnable:
    """`chat` asked for `model`'s strict schema, or for `schema_of_request` (the same model's schema narrowed for
    one request, e.g. its passage ids limited to the evidence's)."""
    schema = _schema(model)
    if schema_of_request is not None:
        schema["schema"] = schema_of_request
    if method == "function_calling":
        tool = {"name": schema["name"], "description": schema["description"], "parameters": schema["schema"]}
        return chat.with_structured_output(tool, method="function_calling", include_raw=True, strict=True)
    return chat.with_structured_output({**schema, "strict": True}, method="json_schema", include_raw=True)


class OpenAIProvider:
    """The four roles on langchain-openai chat models."""

    name = "openai"
    compression_uses_model = True
    reading_uses_model = True
    audit_uses_model = True

    def __init__(self, settings: Settings, *, rate_limiter: InMemoryRateLimiter | None = None) -> None:
        self.settings = settings
        limiter = rate_limiter or shared_rate_limiter(settings.max_calls_per_minute)
        self.synth_model = settings.synth_model
        self.audit_model = settings.audit_model
        self._synth = _chat_model(settings, settings.synth_model, limiter, settings.synth_max_tokens)
        method = settings.structured_output
        critic = _chat_model(settings, settings.audit_model, limiter, settings.critic_max_tokens)
        evaluator = _chat_model(settings, settings.audit_model, limiter, settings.evaluator_max_tokens)
        compressor = _chat_model(settings, settings.synth_model, limiter, settings.compress_max_tokens)
        self._critic = _structured(critic, Critique, method)
        self._evaluator = _structured(evaluator, Evaluation, method)
        self._compressor = _structured(compressor, CompressedEvidence, method)
        self._reader = _structured(compressor, FollowUp, method)
        self._limits = {
            "synthesize": settings.synth_max_tokens,
            "critique": settings.critic_max_tokens,
            "evaluate": settings.evaluator_max_tokens,
            "compress": settings.compress_max_tokens,
            "read": settings.compress_max_tokens,
        }
        self._server = _host(settings.openai_base_url)

    # --- the roles -------------------------------------------------------------------------------------

    def synthesize(
        self,
        question: str,
        evidence: Sequence[EvidenceChunk],
        feedback: Critique | None = None,
        relatedness: Relatedness | None = None,  # the model reads meaning itself
    ) -> str:
        if self.settings.synth_reply == "claims":
            return self._synthesize_claims(question, evidence, feedback)
        fence = Fence.new()
        messages = [
            SystemMessage(prompts.SYNTHESIZER_SYSTEM.format(**prompts.data_rule(fence))),
            HumanMessage(
                prompts.SYNTHESIZER_USER.format(
                    question=question,
                    evidence=prompts.evidence_block(evidence, fence),
                    feedback=prompts.feedback_text(feedback),
                    ids=", ".join(f"[{chunk['chunk_id']}]" for chunk in evidence),
                )
            ),
        ]
        failed: _Failed | None = None
        for _ in range(ATTEMPTS):
            attempt = messages if failed is None else [*messages, HumanMessage(self._repair("synthesize", failed))]
            try:
                reply = self._call(self._synth, self.synth_model, attempt)
            except openai.LengthFinishReasonError as exc:  # only raised with response_format; kept for safety
                record_usage("synthesize", self.synth_model, _completion_usage(exc))
                failed = self._cut_off("synthesize")
                continue
            assert isinstance(reply, AIMessage)
            record_usage("synthesize", self.synth_model, reply.usage_metadata)
            if _finish_reason(reply) == "length":
                log.warning("synthesize: %s cut off at %d tokens", self.synth_model, self._limits["synthesize"])
                failed = self._cut_off("synthesize")
                continue
            return reply.text.strip() or claims.NO_CLAIMS
        assert failed is not None
        raise self._unfinished(failed)

    def _synthesize_claims(
        self, question: str, evidence: Sequence[EvidenceChunk], feedback: Critique | None
    ) -> str:
        """The structured reply: claims whose passage ids the schema limits to the evidence's ids."""
        fence = Fence.new()
        messages = [
            SystemMessage(prompts.SYNTHESIZER_CLAIMS_SYSTEM.format(**prompts.data_rule(fence))),
            HumanMessage(
                prompts.SYNTHESIZER_CLAIMS_USER.format(
                    question=question,
                    evidence=prompts.evidence_block(evidence, fence),
                    feedback=prompts.feedback_text(feedback, claims=True),
                )
            ),
        ]
        schema = claims.limit_ids(strict_schema(claims.CitedAnswer), [chunk["chunk_id"] for chunk in evidence])
        runnable = _structured(self._synth, claims.CitedAnswer, self.settings.structured_output, schema)
        result = self._structured_call(runnable, claims.CitedAnswer, self.synth_model, "synthesize", messages)
        if isinstance(result, _Failed):
            raise self._unfinished(result)
        return claims.render(result)

    def _unfinished(self, failed: _Failed) -> LLMReplyError:
        return LLMReplyError(
            f"The language model {self.synth_model} at {self._server} did not finish an answer in "
            f"{ATTEMPTS} requests ({failed.reason}); raise MASIS_SYNTH_MAX_TOKENS or use a stronger "
            "MASIS_SYNTH_MODEL."
        )

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
        if isinstance(result, _Failed):
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

    def read_in_context(
        self,
        question: str,
        earlier: Sequence[Earlier],
        antecedent: str | None = None,
        names: Sequence[str] = (),
        tools: AbstractSet[str] = frozenset(),
    ) -> Reading:
        """One structured call on the synthesis model (which reads the names from the turns' own words); an
        unreadable reply falls back to the offline rules, `names` and `tools` included."""
        fence = Fence.new()
        said = prompts.READER_ANTECEDENT.format(antecedent=antecedent) if antecedent else ""
        messages = [
            SystemMessage(prompts.READER_SYSTEM.format(**prompts.data_rule(fence))),
            HumanMessage(prompts.READER_USER.format(turns=prompts.turns_block(earlier, fence), question=question,
                                                    antecedent=said)),
        ]
        result = self._structured_call(self._reader, FollowUp, self.synth_model, "read", messages)
        if isinstance(result, _Failed):
            return ExtractiveProvider().read_in_context(question, earlier, antecedent, names, tools)
        text = result.question.strip() or question
        if result.candidates and result.unclear.strip() and antecedent is None:
            return Reading(question, True, "model", tuple(result.candidates[:5]), result.unclear.strip())
        return Reading(text, result.depends_on_context and text != question, "model")

    def critique(
        self,
        question: str,
        answer: str,
        evidence: Sequence[EvidenceChunk],
        term_weights: Mapping[int, float] | None = None,  # the model weighs the question's words itself
        relatedness: Relatedness | None = None,  # the model reads meaning itself
    ) -> Critique:
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
        if isinstance(result, _Failed):
            # An audit that failed is not a critique: it must never reach the synthesizer as feedback nor
            # stand as a verdict on the draft. The user gets one sentence instead.
            json_mode = self.settings.structured_output == "json_schema"
            other_mode = "" if json_mode else "MASIS_STRUCTURED_OUTPUT=json_schema or "
            raise LLMReplyError(
                f"I could not check this answer: the audit model {self.audit_model} at {self._server} did not "
                f"return a readable critique in {ATTEMPTS} requests ({result.reason}); try "
                f"{other_mode}a stronger MASIS_AUDIT_MODEL."
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
        if isinstance(result, _Failed):
            fallback = ExtractiveProvider().evaluate(question, answer, evidence, critique)
            fallback.reasoning = (
                f"The audit model's scores could not be read ({result.reason}); these are the deterministic scores."
            )
            return fallback
        return result

    # --- transport -----------------------------------------------------------------------------------

    def _call(self, runnable: Runnable, model: str, messages: list[Any]) -> Any:
        """One request (plus the client's own retries). Every `openai` error but a cut-off reply becomes
        an `LLMUnavailableError`; `LengthFinishReasonError` is the caller's failed attempt."""
        try:
            return runnable.invoke(messages)
        except openai.LengthFinishReasonError:
            raise
        except openai.APIError as exc:
            raise LLMUnavailableError(self._unavailable(model, exc), unavailable=failures.unavailable(exc),
                                      retry_after=failures.retry_after(exc)) from None
        except openai.OpenAIError as exc:  # e.g. ContentFilterFinishReasonError
            raise LLMUnavailableError(
                f"The language model {model} at {self._server} gave no usable reply ({type(exc).__name__}: "
                f"{_one_line(str(exc))})."
            ) from None

    def _structured_call(
        self, runnable: Runnable, schema: type[T], model: str, role: str, messages: list[Any]
    ) -> T | _Failed:
        """The validated reply, or why the last of `ATTEMPTS` replies could not be used. The second
        attempt is not the first one again (at temperature 0 that is the same reply): it carries a repair
        message quoting the failure."""
        failed: _Failed | None = None
        for attempt in range(1, ATTEMPTS + 1):
            request = messages if failed is None else [*messages, *self._repair_messages(role, schema, failed)]
            try:
                result = self._call(runnable, model, request)
            except openai.LengthFinishReasonError as exc:
                record_usage(role, model, _completion_usage(exc))
                failed = self._cut_off(role)
            except (ValueError, ValidationError) as exc:  # a reply the client itself could not decode
                record_usage(role, model, None)
                failed = _Failed(f"the client could not decode it: {type(exc).__name__}")
            else:
                raw = result.get("raw")
                record_usage(role, model, getattr(raw, "usage_metadata", None))
                if _finish_reason(raw) == "length":
                    failed = self._cut_off(role)
                else:
                    parsed = _parse(result, schema)
                    if not isinstance(parsed, _Failed):
                        return parsed
                    failed = parsed
            log.warning("%s: unusable structured reply from %s (attempt %d): %s", role, model, attempt, failed.reason)
        assert failed is not None
        return failed

    def _cut_off(self, role: str) -> _Failed:
        return _Failed(f"cut off at the {self._limits[role]}-token limit, finish_reason=length", cut_off=True)

    def _repair(self, role: str, failed: _Failed, schema: type[BaseModel] | None = None) -> str:
        if failed.cut_off:
            shape = (
                ": at most six short sentences, each with its citation, and no copy of the evidence"
                if schema is None
                else ": one JSON object with every field, at most three short items in each list"
            )
            return _REPAIR_CUT_OFF.format(limit=self._limits[role], shape=shape)
        assert schema is not None
        return _REPAIR_MALFORMED.format(
            name=schema.__name__, reason=failed.reason, fields=", ".join(schema.model_fields)
        )

    def _repair_messages(self, role: str, schema: type[BaseModel], failed: _Failed) -> list[Any]:
        quoted = [AIMessage(failed.reply[:_REPLY_QUOTE_CHARS])] if failed.reply and not failed.cut_off else []
        return [*quoted, HumanMessage(self._repair(role, failed, schema))]

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
        said = _server_message(exc)
        if said:
            reason += f'; the server said: "{said}"'
        sent = _requests_sent(exc)
        count = f"{sent} request{'s' if sent != 1 else ''}" if sent else "its retries"
        return (
            f"The language model {model} at {self._server} did not answer ({reason}) after {count}; "
            "try again later, or check OPENAI_BASE_URL and the model names."
        )


def _finish_reason(message: Any) -> str | None:
    metadata = getattr(message, "response_metadata", None) or {}
    reason = metadata.get("finish_reason")
    return str(reason) if reason else None


def _completion_usage(exc: openai.LengthFinishReasonError) -> dict[str, int] | None:
    usage = getattr(exc.completion, "usage", None)
    if usage is None:
        return None
    return {"input_tokens": usage.prompt_tokens, "output_tokens": usage.completion_tokens}


def _json_object(text: str) -> Any:
    """The JSON object a reply holds as plain content, with or without a code fence around it."""
    body = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", body, re.DOTALL)
    if fenced:
        body = fenced.group(1)
    return json.loads(body)


def _parse(result: dict[str, Any], schema: type[T]) -> T | _Failed:
    """Validate a structured reply. A function call that a server answered as JSON content (llama.cpp
    ignores an object-valued `tool_choice`) is read from the content, bare or as {"name", "arguments"}."""
    raw = result.get("raw")
    content = raw.text if isinstance(raw, AIMessage) else ""
    parsed = result.get("parsed")
    error = result.get("parsing_error")
    if (parsed is None or error is not None) and content.strip():
        try:
            parsed, error = _json_object(content), None
        except ValueError as exc:
            error = error or exc
        if isinstance(parsed, dict) and not (parsed.keys() & schema.model_fields.keys()):
            inner = parsed.get("arguments", parsed.get("parameters"))
            parsed = json.loads(inner) if isinstance(inner, str) else inner
    if error is not None or not isinstance(parsed, dict):
        reason = f"not valid JSON: {_one_line(str(error))}" if error is not None else "no JSON object in the reply"
        return _Failed(reason, content)
    # langchain's JSON parser also accepts a truncated object (partial parsing), and the schema is strict,
    # so a reply missing any field is as unreadable as broken JSON.
    missing = [name for name in schema.model_fields if name not in parsed]
    if missing:
        return _Failed(f"missing field(s): {', '.join(missing)}", content or json.dumps(parsed))
    try:
        return schema.model_validate(parsed)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return _Failed(f"field {where}: {first['msg']}", content or json.dumps(parsed))


def _one_line(text: str, limit: int = _SERVER_MESSAGE_CHARS) -> str:
    line = redact(" ".join(text.split()))
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _server_message(exc: openai.APIError) -> str:
    """The server's own words ("request (9000 tokens) exceeds the available context size …")."""
    body = exc.body
    message: Any = None
    if isinstance(body, dict):
        inner = body.get("error")
        message = inner.get("message") if isinstance(inner, dict) else body.get("message")
    elif isinstance(body, str):
        message = body
    return _one_line(str(message)) if message else ""


def _requests_sent(exc: openai.APIError) -> int | None:
    """How many requests the client really sent: its retry counter on the last request, plus one."""
    request = getattr(exc, "request", None)
    try:
        return int(request.headers.get("x-stainless-retry-count", "")) + 1 if request is not None else None
    except ValueError:
        return None


def _host(base_url: str | None) -> str:
    if not base_url:
        return "api.openai.com"
    parts = urlsplit(base_url)
    return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else "the configured server"
