"""`GET /metrics`: the Prometheus metrics of `masis.metrics`, behind their own bearer token.

Off (404) unless `MASIS_METRICS_TOKEN` is set. A token of its own, not the API's, so a scraper can read
counters without being able to ask questions or read documents. Prometheus sends it with
`authorization: {credentials: ...}` in its scrape config.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from masis import metrics
from masis.api.auth import BearerAuth
from masis.api.errors import error_response
from masis.config import Settings

PATH = "/metrics"
TOKEN_VARIABLE = "MASIS_METRICS_TOKEN"


def metrics_token(settings: Settings) -> str | None:
    token = settings.metrics_token.get_secret_value().strip() if settings.metrics_token else ""
    return token or None


def metrics_routes(settings: Settings) -> list[BaseRoute]:
    """`GET /metrics`; with its token set, the metrics are turned on in this process from now on."""
    token = metrics_token(settings)
    if token is None:
        return [Route(PATH, _metrics_off, methods=["GET"])]
    metrics.enable()
    return [Route(PATH, BearerAuth(_metrics, token, TOKEN_VARIABLE), methods=["GET"])]


async def _metrics(scope: Scope, receive: Receive, send: Send) -> None:
    from prometheus_client.exposition import choose_encoder

    encoder, content_type = choose_encoder(Request(scope).headers.get("accept"))
    await Response(encoder(metrics.enable()), media_type=content_type)(scope, receive, send)


async def _metrics_off(request: Request) -> Response:
    return error_response(404, f"Not found: the metrics endpoint is off (set {TOKEN_VARIABLE} to turn it on).")
