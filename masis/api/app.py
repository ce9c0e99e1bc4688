"""The HTTP API's routes: a face over the Engine, like the CLI and the Slack bot, on the same data directory.

`api_routes(engine, settings)` returns what `bot.server.build_asgi` mounts beside Slack's `/slack/events`:
`GET /readyz` and `GET /metrics` (off without `MASIS_METRICS_TOKEN`) always; and the `/masis/...` routes,
`GET /openapi.json` and `GET /docs` only when `MASIS_API_TOKEN` is set. Without a token every `/masis/...`
path is a 404, so a bot deployment never exposes the engine by accident. Engine calls are blocking: asks,
replies and uploads wait their workspace's turn in the engine's fair worker pool (shared with Slack; a full
line is a 429 with `Retry-After`), quick reads run in the threadpool. The engine serializes runs per thread.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import Receive, Scope, Send

from masis.api.auth import BearerAuth
from masis.api.bodies import read_json_body, read_uploads
from masis.api.errors import ApiError, endpoint, error_response, http_exception, parse_body
from masis.api.metrics import metrics_routes
from masis.api.models import (
    THREAD_ID,
    WORKSPACE_ID,
    ApiOutcome,
    AskRequest,
    DocumentList,
    FeedbackRequest,
    FeedbackResult,
    FileOutcome,
    IngestResponse,
    PendingClarification,
    Readiness,
    Removed,
    ReplyRequest,
    ThreadState,
)
from masis.api.openapi import docs_page, openapi_spec
from masis.api.throttle import KeyedRateLimit
from masis.config import Settings
from masis.engine import Engine
from masis.fairness import QueueFull
from masis.ingest.pipeline import document_name, name_problem, visible_name
from masis.store.base import WORKSPACE_RULE

log = logging.getLogger(__name__)

API_PREFIX = "/masis"
MAX_FILES = 10  # per request, as in Slack's upload form
MAX_UPLOADED_BY = 100
_PROBE = "masis.readyz.probe"  # a workspace and thread nobody uses (a valid id): the readiness probe only reads

T = TypeVar("T")


def api_token(settings: Settings) -> str | None:
    token = settings.api_token.get_secret_value().strip() if settings.api_token else ""
    return token or None


def api_routes(engine: Engine, settings: Settings) -> list[BaseRoute]:
    routes: list[BaseRoute] = [Route("/readyz", _Readiness(engine), methods=["GET"]), *metrics_routes(settings)]
    token = api_token(settings)
    if token is None:
        routes.append(Mount(API_PREFIX, app=_api_off))
        return routes
    handlers = _Handlers(engine, settings)
    api = Starlette(
        routes=[
            Route("/workspaces/{workspace_id}", endpoint(handlers.ask), methods=["POST"]),
            Route("/workspaces/{workspace_id}/documents", endpoint(handlers.documents), methods=["GET"]),
            Route("/workspaces/{workspace_id}/documents", endpoint(handlers.upload), methods=["POST"]),
            Route("/workspaces/{workspace_id}/documents/{name}", endpoint(handlers.remove), methods=["DELETE"]),
            Route("/threads/{thread_id}", endpoint(handlers.thread), methods=["GET"]),
            Route("/threads/{thread_id}/reply", endpoint(handlers.reply), methods=["POST"]),
            Route("/threads/{thread_id}/feedback", endpoint(handlers.feedback), methods=["POST"]),
        ],
        middleware=[Middleware(BearerAuth, token=token)],
        exception_handlers={HTTPException: http_exception},
    )
    spec = openapi_spec()
    page = docs_page(spec)

    async def openapi_json(_: Request) -> Response:
        return JSONResponse(spec)

    async def docs(_: Request) -> Response:
        return HTMLResponse(page)

    routes += [
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/docs", docs, methods=["GET"]),
        Mount(API_PREFIX, app=api),
    ]
    return routes


async def _api_off(scope: Scope, receive: Receive, send: Send) -> None:
    response = error_response(404, "Not found: the HTTP API is off (set MASIS_API_TOKEN to turn it on).")
    await response(scope, receive, send)


def _json(model: BaseModel, status: int = 200) -> Response:
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")


async def _call(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    return await run_in_threadpool(functools.partial(func, *args, **kwargs))


async def _queued(engine: Engine, workspace: str, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `func` in `workspace`'s line of the engine's pool; 429 with `Retry-After` when the line is full.
    A request whose client goes away while it waits is dropped from the line."""
    try:
        future = engine.pool.submit(functools.partial(func, *args, **kwargs), workspace=workspace)
    except QueueFull as exc:
        raise ApiError(429, str(exc), {"workspace_id": workspace, "limit": exc.limit},
                       headers={"Retry-After": str(exc.retry_after)}) from None
    return await asyncio.wrap_future(future)


def _workspace(request: Request) -> str:
    value = request.path_params["workspace_id"]
    if not WORKSPACE_ID.fullmatch(value):
        raise ApiError(400, f"{WORKSPACE_RULE}.", {"workspace_id": value[:200]})
    return value


def _thread(request: Request) -> str:
    value = request.path_params["thread_id"]
    if not THREAD_ID.fullmatch(value):
        raise ApiError(400, "A thread id is 1-200 letters, digits and ._:@- (starting with a letter or digit).",
                       {"thread_id": value[:250]})
    return value


def safe_document_name(raw: str) -> str:
    """A client's file name as a document name: its base name only (no directories, so no traversal), and no
    control characters or dot-only names."""
    name = document_name(raw)
    if problem := name_problem(name):
        raise ApiError(400, f"The document name is refused: {problem}.", {"name": visible_name(raw[:300])})
    if not name or set(name) <= {"."} or len(name) > 255:
        raise ApiError(400, "A document name needs a file name (up to 255 characters).", {"name": raw[:300]})
    return name


class _Handlers:
    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings
        self.votes = KeyedRateLimit(settings.feedback_per_minute)

    async def ask(self, request: Request) -> Response:
        workspace = _workspace(request)
        body = parse_body(AskRequest, await read_json_body(request))
        thread_id = body.thread_id or f"api:{uuid.uuid4().hex}"
        # A thread of another workspace is refused by the engine, atomically (ThreadOwnershipError: 409).
        outcome = await _queued(
            self.engine, workspace, self.engine.ask, workspace, body.query, thread_id=thread_id,
            max_retries=body.max_retries,
        )
        return _json(ApiOutcome.from_outcome(outcome))

    async def reply(self, request: Request) -> Response:
        thread_id = _thread(request)
        body = parse_body(ReplyRequest, await read_json_body(request))
        workspace = await _call(self.engine.workspace_of, thread_id)
        if workspace is None:
            raise ApiError(404, f"No thread {thread_id}; start one with POST /masis/workspaces/{{workspace_id}}.")
        if body.choice and body.choice.startswith("source:"):
            wanted = body.choice.removeprefix("source:")
            known = [d.name for d in await _call(self.engine.documents, workspace)]
            if wanted not in known:
                raise ApiError(422, f"No document named {wanted!r} in this workspace.", {"documents": known})
        outcome = await _queued(self.engine, workspace, self.engine.reply, thread_id, body.text, choice=body.choice,
                                round=body.round)
        return _json(ApiOutcome.from_outcome(outcome))

    async def feedback(self, request: Request) -> Response:
        thread_id = _thread(request)
        body = parse_body(FeedbackRequest, await read_json_body(request))
        wait = self.votes.take(thread_id)
        if wait:
            raise ApiError(429, f"Too many votes on thread {thread_id}: at most {self.votes.per_minute} a minute.",
                           {"thread_id": thread_id, "limit": self.votes.per_minute},
                           headers={"Retry-After": KeyedRateLimit.retry_after(wait)})
        run = await _call(self.engine.record_feedback, thread_id, body.user, body.value, run=body.run)
        tally = await _call(self.engine.registry.feedback_tally, thread_id, run)
        return _json(FeedbackResult(thread_id=thread_id, run=run, **tally))

    async def thread(self, request: Request) -> Response:
        thread_id = _thread(request)
        workspace = await _call(self.engine.workspace_of, thread_id)
        if workspace is None:
            raise ApiError(404, f"No thread {thread_id}.")
        pending = await _call(self.engine.pending, thread_id)
        return _json(ThreadState(
            thread_id=thread_id,
            workspace_id=workspace,
            pending=None if pending is None else PendingClarification(
                kind=pending.kind, question=pending.question, options=pending.options, draft=pending.draft,
                round=pending.round,
            ),
        ))

    async def documents(self, request: Request) -> Response:
        workspace = _workspace(request)
        infos = await _call(self.engine.documents, workspace)
        return _json(DocumentList(workspace_id=workspace, documents=infos))

    async def upload(self, request: Request) -> Response:
        workspace = _workspace(request)
        files, fields = await read_uploads(
            request, max_files=MAX_FILES, max_file_bytes=self.settings.max_file_bytes
        )
        named = [(safe_document_name(name), data) for name, data in files]
        uploaded_by = (fields.get("uploaded_by") or "api").strip()[:MAX_UPLOADED_BY] or "api"
        report = await _queued(self.engine, workspace, self.engine.ingest, workspace, named, uploaded_by=uploaded_by)
        results = IngestResponse(
            workspace_id=workspace, results=[FileOutcome.from_result(r) for r in report.results]
        )
        if len(report.failed) == len(report.results):
            raise ApiError(422, "No file could be indexed; see each file's reason.",
                           results.model_dump(mode="json"))
        return _json(results)

    async def remove(self, request: Request) -> Response:
        workspace = _workspace(request)
        name = safe_document_name(request.path_params["name"])
        await _call(self.engine.remove_document, workspace, name)
        return _json(Removed(workspace_id=workspace, removed=name))


class _Readiness:
    """`GET /readyz`: a real, cheap read of each part — the store (a filtered count), the checkpointer (a
    checkpoint lookup) and the registry. 503 with the reason when one fails. The sentence encoder's state is
    reported beside them: without it answers still come, judged from words alone."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from masis.judge import semantic

        checks = await run_in_threadpool(self._check)
        encoder = await run_in_threadpool(semantic.status, self.engine.settings.semantic)
        ready = all(value == "ok" for value in checks.values())
        response = _json(Readiness(ready=ready, checks=checks, encoder=encoder), 200 if ready else 503)
        await response(scope, receive, send)

    def _check(self) -> dict[str, str]:
        probes: dict[str, Callable[[], object]] = {
            "store": lambda: self.engine.store.count(_PROBE),
            "checkpointer": lambda: self.engine.checkpointer.get_tuple({"configurable": {"thread_id": _PROBE}}),
            "registry": lambda: self.engine.registry.conversation(_PROBE),
        }
        checks: dict[str, str] = {}
        for name, probe in probes.items():
            try:
                probe()
                checks[name] = "ok"
            except Exception as exc:
                log.warning("readiness: %s is not reachable: %s", name, exc)
                checks[name] = f"not reachable: {type(exc).__name__}: {str(exc)[:200]}"
        return checks
