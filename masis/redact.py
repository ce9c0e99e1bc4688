"""Secrets never leave: one redactor for every text that goes out (errors, logs, Slack messages, API answers).

It knows the configured secrets by their literal value, whatever their shape (every `Settings` feeds it:
`OPENAI_API_KEY`, the Slack tokens and signing secret, `MASIS_API_TOKEN`, `QDRANT_API_KEY`, the password
of `MASIS_DATABASE_URL`), and the key shapes known by prefix (`sk-…`, `xox?-…`, `xapp-…`) even when not
configured. `redact_logs()` puts it on the log handlers. Only the standard library: the CLI imports it.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from masis.config import Settings

REDACTED = "[redacted]"
# Shorter values are placeholders, not secrets (local servers take OPENAI_API_KEY=EMPTY or "dummy"):
# redacting them would mangle every text that happens to contain the word.
MIN_SECRET_CHARS = 8
_KNOWN_SHAPES = r"\b(?:sk-[A-Za-z0-9_-]{6,}|x(?:ox[abposre]|app)-[A-Za-z0-9_-]+)"


class Redactor:
    """Replaces the secrets it has learned, and anything shaped like a known key, with `[redacted]`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: frozenset[str] = frozenset()
        self._pattern = re.compile(_KNOWN_SHAPES)

    def learn(self, *values: str | None) -> None:
        new = {v.strip() for v in values if v and len(v.strip()) >= MIN_SECRET_CHARS} - self._values
        if not new:
            return
        with self._lock:
            values_now = self._values | new
            # longest first, so a secret that contains another is removed whole
            literal = "|".join(re.escape(v) for v in sorted(values_now, key=len, reverse=True))
            self._pattern = re.compile(f"{literal}|{_KNOWN_SHAPES}")
            self._values = values_now

    def __call__(self, text: str) -> str:
        return self._pattern.sub(REDACTED, text)


SECRETS = Redactor()


def redact(text: str) -> str:
    """`text` without any secret MASIS knows of."""
    return SECRETS(text)


def settings_secrets(settings: Settings) -> list[str]:
    """The secret values a configuration holds."""
    fields = (settings.openai_api_key, settings.slack_bot_token, settings.slack_app_token,
              settings.slack_signing_secret, settings.api_token, settings.qdrant_api_key, settings.metrics_token)
    values = [field.get_secret_value() for field in fields if field is not None]
    if settings.database_url is not None:
        try:
            password = urlsplit(settings.database_url.get_secret_value()).password
        except ValueError:
            password = None
        if password:
            values += [password, unquote(password)]  # as written in the URL, and as the server sees it
    return values


def learn_settings(settings: Settings) -> None:
    SECRETS.learn(*settings_secrets(settings))


class RedactingFilter(logging.Filter):
    """A handler filter: the record's message, traceback and stack without secrets."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: the handler reports it as it always does
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


_FILTER = RedactingFilter()


def redact_logs() -> None:
    """Put the filter on the root logger's handlers and on those of the loggers that do not propagate to
    them (uvicorn's); call it again after something adds handlers. A filter on a handler sees every record
    that handler writes, whichever logger it came from."""
    loggers = [logging.getLogger()] + [
        logger for logger in list(logging.Logger.manager.loggerDict.values())
        if isinstance(logger, logging.Logger) and not logger.propagate
    ]
    for logger in loggers:
        for handler in logger.handlers:
            if _FILTER not in handler.filters:
                handler.addFilter(_FILTER)
