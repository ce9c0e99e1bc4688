"""How a failed request to a model is classed: unreachable or overloaded (try again later, maybe after
its `Retry-After`), or a bad answer (a refused key, an unknown model, a server error)."""

from __future__ import annotations

import time
from email.utils import parsedate_to_datetime

import openai

_OVERLOADED = frozenset({429, 503})


def unavailable(exc: openai.APIError) -> bool:
    """Could not connect, timed out, or the server said it is overloaded (429 other than an exhausted
    quota, 503): the same request may well work later."""
    if isinstance(exc, openai.APIConnectionError):  # APITimeoutError included
        return True
    if isinstance(exc, openai.APIStatusError) and exc.status_code in _OVERLOADED:
        return exc.code != "insufficient_quota"  # a quota runs out until someone pays, not for a minute
    return False


def retry_after(exc: openai.APIError) -> float | None:
    """The seconds the server asked to wait (`retry-after-ms`, `retry-after` in seconds or as a date)."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    try:
        if milliseconds := headers.get("retry-after-ms"):
            return max(0.0, float(milliseconds) / 1000)
        value = headers.get("retry-after")
        if not value:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (ValueError, TypeError):
        return None

