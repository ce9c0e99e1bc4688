"""The ASGI app and the process around it.

`build_asgi` serves Slack's `POST /slack/events` (events, slash commands and interactivity alike) through
Bolt's Starlette adapter, `GET /healthz`, and any `extra_routes` — the seam where the HTTP API
(`masis.api`, the `/masis/...` routes) is mounted beside Slack. `serve` runs it all with uvicorn, or
connects over Socket Mode when `SLACK_APP_TOKEN` is set (then HTTP serves only health and the API).
Without `SLACK_BOT_TOKEN` but with `MASIS_API_TOKEN`, `serve_api_only` runs the API alone.
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import sys
import threading
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from slack_bolt import App, BoltRequest
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from slack_sdk.signature import SignatureVerifier
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from masis.api.bodies import limited_stream
from masis.api.errors import ApiError, error_response, http_exception
from masis.config import Settings
from masis.redact import redact, redact_logs

if TYPE_CHECKING:
    import uvicorn

    from bot.deps import BotDeps
    from masis.engine import Engine

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
MAX_BODY_BYTES = 1024 * 1024  # Slack's payloads are a few KB
_TIMESTAMP_DIGITS = 12  # Unix seconds have 10 digits until the year 2286
BAD_SIGNATURE = ("invalid or missing Slack signature (X-Slack-Signature, X-Slack-Request-Timestamp): requests to "
                 "/slack/events must come from Slack, signed with the app's signing secret")


def signed_by_slack(verifier: SignatureVerifier, body: bytes, headers: Mapping[str, str]) -> bool:
    """Whether the request carries a valid, fresh Slack signature. Checked before anything reads the body: the
    SDK's own check takes any `int()`-able timestamp and raises on others ("nan", "1e400"), and Bolt parses the
    body before it verifies, so garbage made 500s and tracebacks."""
    timestamp, signature = headers.get("x-slack-request-timestamp"), headers.get("x-slack-signature")
    if not timestamp or not signature or len(timestamp) > _TIMESTAMP_DIGITS:
        return False
    if not (timestamp.isascii() and timestamp.isdigit()):
        return False
    return verifier.is_valid(body, timestamp, signature)


class EventAcker:
    """Acks Events API deliveries (their signature already checked) before Bolt runs: answer 200, dispatch after.

    For an event Bolt's answer is always an empty 200 (it acks events itself before any listener), so
    nothing is lost by answering first, and the ack no longer waits for middleware, listener matching or
    the dedupe write. Everything else (url_verification, commands, interactivity, whose ack can carry a
    payload) goes through Bolt synchronously.
    """

    def __init__(self, bolt_app: App, max_workers: int = 8) -> None:
        self._app = bolt_app
        self._pool = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="bolt-dispatch")

    def try_ack(self, request: Request, body: bytes) -> Response | None:
        """A response when this (validly signed) request is an event_callback, dispatched in the background."""
        if not request.headers.get("content-type", "").startswith("application/json"):
            return None
        try:
            kind = json.loads(body).get("type")
        except ValueError:
            return None
        if kind != "event_callback":
            return None
        bolt_request = to_bolt_request(request, body)
        self._pool.submit(self._dispatch, bolt_request)
        return Response(status_code=200)

    def _dispatch(self, bolt_request: BoltRequest) -> None:
        try:
            response = self._app.dispatch(bolt_request)
            if response.status != 200:
                log.warning("an acked event was refused by Bolt: %s %s", response.status, response.body)
        except Exception:
            log.exception("dispatching an acked event failed")

    def close(self) -> None:
        self._pool.shutdown(wait=True)


def build_asgi(
    *,
    bolt_app: App | None,
    signing_secret: str | None = None,
    deps: BotDeps | None = None,
    mode: str = "http",  # "http" | "socket" | "off": what /healthz reports
    extra_routes: Sequence[BaseRoute] = (),
    on_shutdown: Sequence[Callable[[], None]] = (),
    engine: Engine | None = None,  # whose liveness /healthz reports (default: the bot's)
) -> Starlette:
    acker = EventAcker(bolt_app) if bolt_app is not None and signing_secret else None
    verifier = SignatureVerifier(signing_secret) if signing_secret else None
    watched = engine or (deps.engine if deps is not None else None)

    async def slack_events(request: Request) -> Response:
        assert bolt_app is not None
        try:  # refused by Content-Length, or cut while streaming: never buffered whole, before any signature check
            body = b"".join([chunk async for chunk in limited_stream(request, MAX_BODY_BYTES)])
        except ApiError as exc:
            return exc.response()
        if verifier is not None and not signed_by_slack(verifier, body, request.headers):
            return error_response(401, BAD_SIGNATURE)
        try:
            body.decode("utf-8")  # Bolt decodes it unguarded; Slack sends UTF-8
        except UnicodeDecodeError:
            return error_response(400, "the request body is not UTF-8 text")
        if acker is not None and (early := acker.try_ack(request, body)) is not None:
            return early
        # Bolt's dispatch is synchronous (it verifies, acks and hands work to threads): keep it off the
        # event loop so one slow request never delays another's ack.
        bolt_response = await run_in_threadpool(bolt_app.dispatch, to_bolt_request(request, body))
        return to_starlette_response(bolt_response)

    async def healthz(request: Request) -> Response:
        """Liveness: 503 when the process cannot recover by itself (`Engine.problem`), so a probe restarts it.
        A database that is down is not such a problem (`/readyz` says it): a restart would not bring it back."""
        problem = watched.problem() if watched is not None else None
        body: dict[str, object] = {"ok": problem is None, "slack": mode,
                                   "jobs_in_flight": deps.jobs.in_flight if deps else 0}
        if deps is not None and deps.watch is not None:
            body["replica_sweeps"] = deps.watch.sweeps
        if problem is not None:
            body["problem"] = problem
        return JSONResponse(body, status_code=200 if problem is None else 503)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        if acker is not None:
            await run_in_threadpool(acker.close)
        for callback in on_shutdown:
            await run_in_threadpool(callback)

    routes: list[BaseRoute] = [Route("/healthz", healthz, methods=["GET"])]
    if bolt_app is not None:
        routes.append(Route(EVENTS_PATH, slack_events, methods=["POST"]))
    routes.extend(extra_routes)  # the HTTP API (masis.api) mounts here
    # The router's own 404/405 (an unknown path, or one the routes' patterns cannot match, like "%0A") as JSON.
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_exception})


def _ignore_signals_after_uvicorn() -> None:
    """uvicorn stops gracefully on SIGINT/SIGTERM and then re-raises the signal with the handler that was
    installed before it ran. Make that handler a no-op, so the re-raised signal does not kill the process
    before the jobs are drained and the engine is closed (and the exit code stays 0)."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: None)


def _run_uvicorn(asgi: Starlette, *, host: str, port: int, log_level: str) -> None:
    """Serve `asgi` until SIGINT/SIGTERM, then return so the caller can drain and close."""
    import uvicorn

    _ignore_signals_after_uvicorn()
    uvicorn.Server(uvicorn_config(asgi, host=host, port=port, log_level=log_level)).run()


def uvicorn_config(asgi: Starlette, **options: Any) -> uvicorn.Config:
    """How MASIS runs uvicorn: no access log, lifespan on, and JSON for the requests it refuses itself."""
    import uvicorn

    from masis.api.http11 import JsonErrorH11Protocol

    config = uvicorn.Config(asgi, access_log=False, lifespan="on", http=JsonErrorH11Protocol, **options)
    redact_logs()  # uvicorn's loggers got their own handlers just now
    return config


def load_encoder(settings: Settings) -> None:
    """Load the local sentence encoder at start, not at the first question: a missing or damaged model is
    logged now, once, as a warning (and shown by /readyz), and the first question does not wait for it."""
    from masis.judge import semantic

    if semantic.load(settings.semantic) is not None:
        log.info("the sentence encoder is loaded")


def read_ahead(engine: Engine) -> None:
    """Have the encoder read the documents' passages ahead of the questions, in the background
    (`masis.read_ahead`); once the routes are built, so that the metrics count it from the start."""
    if engine.read_ahead() is not None:
        log.info("reading the documents' passages ahead of questions, in the background")


def serve(
    settings: Settings,
    *,
    host: str = "0.0.0.0",
    port: int | None = None,
    extra_routes: Sequence[BaseRoute] = (),
    log_level: str = "info",
) -> int:
    """Run the bot until SIGINT/SIGTERM. Returns a process exit code; start-up problems are one line on
    stderr, never a traceback."""

    from bot.app import build_app
    from bot.deps import BotDeps, bot_token
    from masis.api import api_routes, api_token
    from masis.engine import Engine
    from masis.errors import MasisError

    if not (settings.slack_bot_token and settings.slack_bot_token.get_secret_value()) and api_token(settings):
        return serve_api_only(settings, host=host, port=port, extra_routes=extra_routes, log_level=log_level)
    socket_mode = settings.slack_app_token is not None and bool(settings.slack_app_token.get_secret_value())
    try:
        bot_token(settings)
        if not socket_mode and not (settings.slack_signing_secret and
                                    settings.slack_signing_secret.get_secret_value()):
            raise ValueError("SLACK_SIGNING_SECRET is not set: copy it from your Slack app's Basic Information "
                             "page, or set SLACK_APP_TOKEN (xapp-…) to use Socket Mode")
    except ValueError as exc:
        print(f"masis bot: {redact(str(exc))}", file=sys.stderr)
        return 2
    try:
        engine = Engine(settings)
    except MasisError as exc:
        print(f"masis bot: {redact(str(exc))}", file=sys.stderr)
        return 2
    load_encoder(settings)
    deps = BotDeps.create(settings, engine)
    handler = None
    try:
        try:
            app = build_app(settings, engine, deps=deps)
        except Exception as exc:
            print(f"masis bot: could not verify SLACK_BOT_TOKEN with {settings.slack_api_url} ({redact(str(exc))})",
                  file=sys.stderr)
            return 2
        if socket_mode:
            from slack_bolt.adapter.socket_mode import SocketModeHandler

            assert settings.slack_app_token is not None
            handler = SocketModeHandler(app, settings.slack_app_token.get_secret_value())
            handler.connect()
            log.info("connected to Slack in Socket Mode")
        asgi = build_asgi(
            bolt_app=None if socket_mode else app,
            signing_secret=settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None,
            deps=deps,
            mode="socket" if socket_mode else "http",
            extra_routes=[*api_routes(engine, settings), *extra_routes],
        )
        if api_token(settings):
            log.info("the HTTP API is on at /masis (bearer token required; spec at /openapi.json)")
        read_ahead(engine)
        _run_uvicorn(asgi, host=host, port=port or settings.port, log_level=log_level)
        return 0
    finally:
        if handler is not None:
            with contextlib.suppress(Exception):
                handler.close()
        deps.close(wait=True)
        engine.close()


def serve_api_only(
    settings: Settings,
    *,
    host: str = "0.0.0.0",
    port: int | None = None,
    extra_routes: Sequence[BaseRoute] = (),
    log_level: str = "info",
) -> int:
    """No Slack credentials but MASIS_API_TOKEN set: serve the HTTP API and health alone."""

    from masis.api import api_routes
    from masis.engine import Engine
    from masis.errors import MasisError

    try:
        engine = Engine(settings)
    except MasisError as exc:
        print(f"masis bot: {redact(str(exc))}", file=sys.stderr)
        return 2
    load_encoder(settings)
    try:
        asgi = build_asgi(bolt_app=None, mode="off", extra_routes=[*api_routes(engine, settings), *extra_routes],
                          engine=engine)
        log.info("no SLACK_BOT_TOKEN: serving only the HTTP API at /masis (spec at /openapi.json)")
        read_ahead(engine)
        _run_uvicorn(asgi, host=host, port=port or settings.port, log_level=log_level)
        return 0
    finally:
        engine.close()
