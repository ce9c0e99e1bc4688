"""Errors as the API answers them: JSON `{"error": message, "detail": ...}` with the right status, never a
stack trace nor a secret. `endpoint` wraps each route so that MASIS's own errors map to their statuses (a
model that failed is the server's side: 502, or 503 with `Retry-After` when it was unreachable or
overloaded; a database restarting or failing over is 503 with `Retry-After` too) and anything unexpected is
logged here and answered with a plain 500."""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from masis.errors import (
    DatabaseUnavailableError,
    InvalidWorkspaceError,
    MasisError,
    NotAnAnswerError,
    NothingPendingError,
    StaleReplyError,
    StoreInUseError,
    ThreadOwnershipError,
    UnknownDocumentError,
    UnknownThreadError,
    UpstreamError,
)
from masis.redact import redact

log = logging.getLogger(__name__)

Endpoint = Callable[[Request], Awaitable[Response]]
M = TypeVar("M", bound=BaseModel)

DATABASE_RETRY_AFTER_SECONDS = 5
_STATUS_OF: tuple[tuple[type[MasisError], int], ...] = (
    (NothingPendingError, 409),
    (NotAnAnswerError, 409),
    (ThreadOwnershipError, 409),
    (StaleReplyError, 409),
    (UnknownDocumentError, 404),
    (UnknownThreadError, 404),
    (InvalidWorkspaceError, 400),
    (StoreInUseError, 503),
)


class ApiError(Exception):
    def __init__(self, status: int, message: str, detail: Any = None, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.detail = detail
        self.headers = headers

    def response(self) -> JSONResponse:
        return error_response(self.status, self.message, self.detail, self.headers)


def error_response(
    status: int, message: str, detail: Any = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": redact(message), "detail": detail}, status_code=status, headers=headers)


def upstream_response(exc: UpstreamError) -> JSONResponse:
    """502 when the model answered badly; 503 when it could not be reached or is overloaded, with the
    `Retry-After` it asked for (whole seconds, at least one)."""
    if not exc.unavailable:
        return error_response(502, str(exc))
    headers = {"Retry-After": str(max(1, math.ceil(exc.retry_after)))} if exc.retry_after is not None else None
    return error_response(503, str(exc), headers=headers)


def validation_detail(exc: ValidationError) -> list[dict[str, Any]]:
    """Pydantic's errors without the input echoed back (it may be large, or a secret pasted by mistake)."""
    return [
        {"loc": list(err["loc"]), "msg": err["msg"], "type": err["type"]}
        for err in exc.errors(include_url=False, include_input=False, include_context=False)
    ]


def parse_body(model: type[M], body: bytes) -> M:
    """The request body as `model`, or a 422 that lists what is wrong with it."""
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        raise ApiError(422, "The request body is not valid; see detail.", validation_detail(exc)) from None


def endpoint(func: Endpoint) -> Endpoint:
    @functools.wraps(func)
    async def wrapper(request: Request) -> Response:
        try:
            return await func(request)
        except ApiError as exc:
            return exc.response()
        except UpstreamError as exc:
            return upstream_response(exc)
        except DatabaseUnavailableError as exc:  # a restart or failover: the same request works in a moment
            return error_response(503, str(exc), headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)})
        except MasisError as exc:
            status = next((code for kind, code in _STATUS_OF if isinstance(exc, kind)), 400)
            return error_response(status, str(exc))
        except Exception:
            log.exception("%s %s failed", request.method, request.url.path)
            return error_response(500, "Something went wrong on the server; the error is in its log.")

    return wrapper


async def http_exception(request: Request, exc: Exception) -> Response:
    """The router's own 404 / 405, as JSON."""
    assert isinstance(exc, HTTPException)
    messages = {404: f"No such route: {request.url.path}", 405: f"{request.method} is not allowed here."}
    return error_response(exc.status_code, messages.get(exc.status_code, str(exc.detail)), headers=exc.headers)
