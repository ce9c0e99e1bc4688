"""The API's one credential: `Authorization: Bearer $MASIS_API_TOKEN` on every request under it (and
`$MASIS_METRICS_TOKEN` on `GET /metrics`).

The comparison is constant-time, and the token is never logged or echoed back.
"""

from __future__ import annotations

import hmac

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from masis.api.errors import error_response

_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="masis"'}


class BearerAuth:
    """ASGI middleware: lets a request through only with the right bearer token."""

    def __init__(self, app: ASGIApp, token: str, variable: str = "MASIS_API_TOKEN") -> None:
        if not token:
            raise ValueError("the API token is empty")
        self.app = app
        self._token = token.encode()
        self._variable = variable  # named in the refusals: where the right token is configured

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        problem = self._problem(Headers(scope=scope).get("authorization"))
        if problem is None:
            await self.app(scope, receive, send)
            return
        await error_response(401, problem, headers=_CHALLENGE)(scope, receive, send)

    def _problem(self, header: str | None) -> str | None:
        if not header:
            return f"This API needs a bearer token: send 'Authorization: Bearer <{self._variable}>'."
        scheme, _, credentials = header.partition(" ")
        given = credentials.strip().encode("latin-1", errors="replace")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given, self._token):
            return f"The bearer token is not valid; check {self._variable}."
        return None
