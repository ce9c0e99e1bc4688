"""The Slack Web API client the bot posts with: every text it sends passes `masis.redact` first, so no
secret reaches a Slack message, modal or status line, whatever produced the text."""

from __future__ import annotations

from typing import Any

from slack_sdk import WebClient
from slack_sdk.web import SlackResponse

from masis.redact import redact

_CREDENTIALS = frozenset({"token", "client_secret"})  # arguments that carry a secret on purpose


def redacted(value: Any) -> Any:
    """`value` (a call's arguments: dicts, lists, strings) with every string redacted."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: v if k in _CREDENTIALS else redacted(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redacted(v) for v in value]
    return value


class RedactingWebClient(WebClient):
    def api_call(  # type: ignore[override]
        self,
        api_method: str,
        *,
        http_verb: str = "POST",
        files: dict[str, Any] | None = None,
        data: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
        json: dict[str, Any] | None = None,
        headers: dict[str, Any] | None = None,
        auth: dict[str, Any] | None = None,
    ) -> SlackResponse:
        return super().api_call(api_method, http_verb=http_verb, files=files, data=redacted(data),
                                params=redacted(params), json=redacted(json), headers=headers, auth=auth)
