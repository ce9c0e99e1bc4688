"""A local OpenAI-compatible server for the tests: uvicorn on 127.0.0.1, spoken to by the real clients.

- `/v1/chat/completions`: plain replies, structured replies as `response_format` json_schema content or as
  a forced tool call, each with `usage`; a structured synthesizer request gets claims whose passage ids are
  within its schema's `enum`, as a real server's constrained decoding keeps them. Its "model" is
  deterministic: it reads the evidence passages out of the prompt and answers with MASIS's extractive engine
  (quoting passages with their ids), so the flow paths behave as offline. Replies can be scripted per role.
- `/v1/embeddings`: hashed bag-of-words vectors with a small synonym map, so a paraphrase lands near its
  answer; float lists or base64, as the client asks.
- Faults, scripted per role: 429 with Retry-After, 500, malformed JSON, slow replies, and 401 echoing the
  key the request carried ("Incorrect API key provided: <key>", as vLLM and LiteLLM answer).
- Replays: a `Replay` (a real server's recorded status and JSON body, tests/fixtures/real_llm) is sent
  back exactly as it was recorded, finish_reason, tool-call shape and error body included.
- Every request is recorded (path, model, role, messages, usage) for assertions.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from masis.judge.citations import CITATION, answer_sentences, strip_citations
from masis.judge.findings import Critique
from masis.judge.reading import Earlier
from masis.llm.extractive import ExtractiveProvider
from masis.state import EvidenceChunk

EMBED_DIM = 512
_STOP = "a an the of to in on for and or is are was were be been do does did how what which who whom when where why"
STOP_WORDS = frozenset(
    f"{_STOP} our we us you your it its this that these those as at by with from much many per".split()
)
SYNONYMS = {
    "staff": "employee",
    "employees": "employee",
    "workers": "employee",
    "worker": "employee",
    "people": "employee",
    "earn": "salary",
    "earns": "salary",
    "salaries": "salary",
    "pay": "salary",
    "paid": "salary",
    "wage": "salary",
    "wages": "salary",
    "compensation": "salary",
    "panels": "panel",
    "batteries": "battery",
    "turbines": "turbine",
    "homes": "home",
    "offices": "office",
}
ROLE_MARKERS = {
    "synthesize": "strategic intelligence analyst",
    "critique": "meticulous auditor",
    "evaluate": "You score a draft answer",
    "compress": "You shorten evidence",
    "read": "You read a follow-up question",
}
_PASSAGE = re.compile(r'<passage id="([^"]+)" document="([^"]*)"(?: page="(\d+)")?>\n(.*?)\n</passage>', re.DOTALL)


def embed_text(text: str) -> list[float]:
    """A deterministic unit vector: hashed stemmed-ish words, synonyms folded together."""
    vector = [0.0] * EMBED_DIM
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word in STOP_WORDS:
            continue
        word = SYNONYMS.get(word, word)
        bucket = int.from_bytes(hashlib.md5(word.encode()).digest()[:4], "little") % EMBED_DIM
        vector[bucket] += 1.0
    norm = sum(x * x for x in vector) ** 0.5
    return [x / norm for x in vector] if norm else vector


@dataclass
class Recorded:
    path: str
    model: str
    role: str
    body: dict[str, Any]
    status: int = 200
    usage: dict[str, int] = field(default_factory=dict)
    at: float = field(default_factory=time.monotonic)

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    def text(self) -> str:
        return "\n".join(str(m.get("content") or "") for m in self.messages)


@dataclass
class Fault:
    kind: str  # "401" | "429" | "500" | "malformed" | "hang" (never answers; ends when the client gives up)
    role: str | None
    retry_after: float = 0.0


@dataclass(frozen=True)
class Replay:
    """One recorded reply of a real OpenAI-compatible server: its HTTP status and JSON body, verbatim."""

    status: int
    body: dict[str, Any]


FIXTURES = Path(__file__).resolve().parent / "fixtures" / "real_llm"


def load_fixture(name: str) -> dict[str, Any]:
    """A recorded exchange set: {"source", "model", "server", "question", "replies": [{"role", "status",
    "response"}]}; see tests/fixtures/real_llm/README.md."""
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def _role(body: dict[str, Any]) -> str:
    system = next((str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "system"), "")
    return next((role for role, marker in ROLE_MARKERS.items() if marker in system), "unknown")


def _user(body: dict[str, Any]) -> str:
    return next((str(m.get("content")) for m in body.get("messages", []) if m.get("role") == "user"), "")


def _between(text: str, start: str, end: str | None) -> str:
    head = text.split(start, 1)[1] if start in text else ""
    return head.split(end, 1)[0] if end and end in head else head


def _evidence(prompt: str) -> list[EvidenceChunk]:
    return [
        {
            "chunk_id": cid,
            "doc_name": doc,
            "text": text,
            "page": int(page) if page else None,
            "section": None,
            "relevance": 1.0,
            "score": 1.0,
        }
        for cid, doc, page, text in _PASSAGE.findall(prompt)
    ]


def _unfenced(text: str) -> str:
    return re.sub(r"</?evidence-[0-9a-f]+>", "", text).strip()


def _question(prompt: str) -> str:
    return _between(prompt, "Question: ", "\n\nEvidence:").strip()


def _read(prompt: str, model: ExtractiveProvider) -> dict[str, Any]:
    """The reader's "model": the earlier turns read out of the fenced prompt, the offline rules applied."""
    earlier: list[Earlier] = []
    for line in _unfenced(_between(prompt, "Earlier turns, oldest first:\n", "\n\nFollow-up question: ")).splitlines():
        if line.startswith("Earlier question: "):
            text = line.removeprefix("Earlier question: ")
            earlier.append(Earlier(text, text))
        elif line.startswith("Read as: ") and earlier:
            earlier[-1] = Earlier(earlier[-1].question, line.removeprefix("Read as: "))
        elif line.startswith("Its answer: ") and earlier:
            earlier[-1] = Earlier(earlier[-1].question, earlier[-1].reading, line.removeprefix("Its answer: "))
    question, _, said = _between(prompt, "Follow-up question: ", None).partition("\nAsked what it referred to")
    antecedent = said.split("the user answered: ", 1)[1].strip() if said else None
    reading = model.read_in_context(question.strip(), earlier, antecedent)
    return {"question": reading.text, "depends_on_context": reading.dependent and not reading.unclear,
            "unclear": reading.unclear or "", "candidates": list(reading.candidates)}


def _structured(body: dict[str, Any]) -> bool:
    return bool(body.get("tools") or (body.get("response_format") or {}).get("type") == "json_schema")


def _passage_enum(body: dict[str, Any]) -> list[str]:
    """The passage ids a structured synthesizer request allows (its schema's `enum`), as a real server enforces them."""
    fmt = (body.get("response_format") or {}).get("json_schema") or {}
    schema = fmt.get("schema") or (body.get("tools") or [{}])[0].get("function", {}).get("parameters") or {}
    return list(schema["$defs"]["Claim"]["properties"]["passage_id"]["enum"])


def _as_claims(answer: str, allowed: list[str]) -> dict[str, Any]:
    """The extractive answer as the structured reply: each cited sentence a claim with its first id, if allowed."""
    found = []
    for sentence in answer_sentences(answer):
        ids = [cid for cid in CITATION.findall(sentence) if cid in allowed]
        if ids:
            found.append({"sentence": strip_citations(sentence), "passage_id": ids[0]})
    return {"claims": found}


class OpenAICompatServer:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.faults: list[Fault] = []
        self.scripted: dict[str, list[Any]] = {}
        self._lock = threading.Lock()
        self._model = ExtractiveProvider()
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        app = Starlette(
            routes=[
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/embeddings", self._embeddings, methods=["POST"]),
            ]
        )
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._sock]}, name="openai-server", daemon=True
        )

    # --- lifecycle -----------------------------------------------------------------------------------

    def start(self) -> OpenAICompatServer:
        self._thread.start()
        deadline = time.monotonic() + 15
        while not self._server.started:
            if time.monotonic() > deadline:
                raise AssertionError("the OpenAI-compatible test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.faults.clear()
            self.scripted.clear()

    # --- scripting -----------------------------------------------------------------------------------

    def fail(
        self, kind: str, *, role: str | None = None, times: int = 1, retry_after: float = 0.0
    ) -> None:
        with self._lock:
            self.faults.extend(Fault(kind, role, retry_after) for _ in range(times))

    def script(self, role: str, reply: Any) -> None:
        """The next reply of `role`: a dict (structured), or a string (plain content)."""
        with self._lock:
            self.scripted.setdefault(role, []).append(reply)

    def replay(self, fixture: dict[str, Any]) -> None:
        """Queue a fixture's recorded replies, each for its role, in the order they were recorded."""
        for reply in fixture["replies"]:
            self.script(reply["role"], Replay(int(reply["status"]), reply["response"]))

    def chat(self, role: str | None = None) -> list[Recorded]:
        return [r for r in self.requests if r.path == "chat" and (role is None or r.role == role)]

    def embedding_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path == "embeddings"]

    # --- endpoints -----------------------------------------------------------------------------------

    def _take_fault(self, role: str) -> Fault | None:
        with self._lock:
            for index, fault in enumerate(self.faults):
                if fault.role in (None, role):
                    return self.faults.pop(index)
        return None

    async def _chat(self, request: Request) -> Response:
        body = await request.json()
        role = _role(body)
        record = Recorded("chat", str(body.get("model")), role, body)
        with self._lock:
            self.requests.append(record)
        fault = self._take_fault(role)
        if fault and fault.kind == "hang":
            # No answer at all (not a slow one that might beat the client's timeout on a busy machine): wait
            # for the client to time out and close the connection, then end.
            while not await request.is_disconnected():
                await asyncio.sleep(0.05)
            return Response(status_code=499)
        if fault and fault.kind == "401":
            return self._refuse_key(request, record)
        if fault and fault.kind == "429":
            record.status = 429
            return JSONResponse(
                {"error": {"message": "Rate limit reached", "type": "rate_limit_error"}},
                status_code=429,
                headers={"retry-after": f"{fault.retry_after:g}"},
            )
        if fault and fault.kind == "500":
            record.status = 500
            return JSONResponse({"error": {"message": "boom", "type": "server_error"}}, status_code=500)
        with self._lock:
            queued = self.scripted.get(role)
            reply = queued.pop(0) if queued else None
        if isinstance(reply, Replay):
            record.status = reply.status
            record.usage = dict(reply.body.get("usage") or {})
            return JSONResponse(reply.body, status_code=reply.status)
        if reply is None:
            reply = self._answer(role, _user(body))
            if role == "synthesize" and _structured(body):
                reply = _as_claims(str(reply), _passage_enum(body))
        content = reply if isinstance(reply, str) else json.dumps(reply)
        if fault and fault.kind == "malformed":
            content = content[: max(1, len(content) // 2)]  # cut mid-object: not JSON any more
        usage = {"prompt_tokens": len(record.text().split()), "completion_tokens": len(content.split())}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        record.usage = usage
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if body.get("tools") and (role != "synthesize" or _structured(body)):
            name = body["tools"][0]["function"]["name"]
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{len(self.requests)}",
                        "type": "function",
                        "function": {"name": name, "arguments": content},
                    }
                ],
            }
        return JSONResponse(
            {
                "id": f"chatcmpl-{len(self.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model"),
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": usage,
            }
        )

    @staticmethod
    def _refuse_key(request: Request, record: Recorded) -> Response:
        """A 401 that quotes the key back in full, as some OpenAI-compatible servers do."""
        record.status = 401
        key = request.headers.get("authorization", "").removeprefix("Bearer ")
        error = {"message": f"Incorrect API key provided: {key}. Check the key the server was started with.",
                 "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}
        return JSONResponse({"error": error}, status_code=401)

    def _answer(self, role: str, prompt: str) -> Any:
        if role == "read":
            return _read(prompt, self._model)
        question = _question(prompt)
        evidence = _evidence(prompt)
        if role == "synthesize":
            claims = [
                line.split(": ", 1)[1]
                for line in prompt.splitlines()
                if line.startswith("- Unsupported by its citation: ")
            ]
            feedback = Critique(unsupported_claims=claims) if "auditor rejected" in prompt else None
            return self._model.synthesize(question, evidence, feedback)
        if role == "critique":
            answer = _unfenced(prompt.split("Draft answer to audit:\n", 1)[-1])
            return self._model.critique(question, answer, evidence).model_dump()
        if role == "evaluate":
            answer = _unfenced(_between(prompt, "Draft answer:\n", "\n\nAuditor's findings:"))
            critique = self._model.critique(question, answer, evidence)
            return self._model.evaluate(question, answer, evidence, critique).model_dump()
        if role == "compress":
            kept = self._model.compress(question, evidence, 6000)
            return {"passages": [{"chunk_id": c["chunk_id"], "text": c["text"]} for c in kept]}
        return "I am a test server."

    async def _embeddings(self, request: Request) -> Response:
        body = await request.json()
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        record = Recorded("embeddings", str(body.get("model")), "embed", body)
        with self._lock:
            self.requests.append(record)
        fault = self._take_fault("embed")
        if fault and fault.kind == "401":
            return self._refuse_key(request, record)
        if fault and fault.kind == "500":
            record.status = 500
            return JSONResponse({"error": {"message": "boom", "type": "server_error"}}, status_code=500)
        data = []
        for index, text in enumerate(texts):
            vector = embed_text(str(text))
            if body.get("encoding_format") == "base64":
                encoded: Any = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
            else:
                encoded = vector
            data.append({"object": "embedding", "index": index, "embedding": encoded})
        tokens = sum(len(str(t).split()) for t in texts)
        return JSONResponse(
            {
                "object": "list",
                "data": data,
                "model": body.get("model"),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )


def openai_settings(data_dir: Any, server: OpenAICompatServer, **overrides: Any) -> Any:
    """Settings for the OpenAI path against `server`: distinct model names per role, a fast rate limit."""
    from tests.conftest import make_settings

    values: dict[str, Any] = {
        "llm": "openai",
        "openai_api_key": "sk-test-secret-key-0123456789",
        "openai_base_url": server.base_url,
        "synth_model": "test-synth-mini",
        "audit_model": "test-audit-large",
        "embed_model": "test-embed-small",
        "max_calls_per_minute": 60_000,
        "llm_max_retries": 2,
        "llm_timeout": 10.0,
    }
    values.update(overrides)
    return make_settings(data_dir, **values)
