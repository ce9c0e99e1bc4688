"""The redactor: every configured secret by its literal value (whatever its shape), the known key shapes
by prefix, and log records (message, arguments, traceback) through the filter on the root handlers."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from masis.redact import REDACTED, redact, redact_logs
from tests.conftest import make_settings

SECRETS = {
    "openai_api_key": "vllm-key-31f0a9",
    "slack_bot_token": "bot-token-7c21e",
    "slack_app_token": "app-token-88d0a",
    "slack_signing_secret": "signing-5e1b77",
    "api_token": "api-token-0d9e3c",
    "qdrant_api_key": "qdrant-key-a4b2",
}
DB_PASSWORD = "p@ss-w0rd-91"


@pytest.fixture(scope="module", autouse=True)
def _configured(tmp_path_factory: pytest.TempPathFactory) -> None:
    make_settings(tmp_path_factory.mktemp("redact"), **SECRETS,
                  database_url="postgresql://masis:p%40ss-w0rd-91@db.internal:5432/masis")


@pytest.mark.parametrize("secret", [*SECRETS.values(), DB_PASSWORD, "p%40ss-w0rd-91"])
def test_a_configured_secret_is_redacted_by_its_value(secret: str) -> None:
    assert redact(f'the server said: "Incorrect API key provided: {secret}."') == \
        f'the server said: "Incorrect API key provided: {REDACTED}."'


@pytest.mark.parametrize("shaped", ["sk-proj-abcdef123456", "xoxb-1-2-abc", "xoxp-9-x", "xapp-1-A1-2-ff"])
def test_the_known_shapes_stay_redacted_unconfigured(shaped: str) -> None:
    assert redact(f"token {shaped} here") == f"token {REDACTED} here"


def test_ordinary_text_is_left_alone(tmp_path: Path) -> None:
    make_settings(tmp_path, openai_api_key="EMPTY", api_token="dummy")  # placeholders, not secrets
    text = "Project Falcon launches on 14 March 2027 (ask-me, sketch-1, api-token). EMPTY means dummy."
    assert redact(text) == text


@pytest.fixture
def root_stream() -> Iterator[io.StringIO]:
    """A real handler on the root logger, as `logging.basicConfig` installs one, with the filter on it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    root.addHandler(handler)
    redact_logs()
    try:
        yield stream
    finally:
        root.removeHandler(handler)


def test_log_lines_and_tracebacks_lose_the_secrets(root_stream: io.StringIO) -> None:
    log = logging.getLogger("masis.test.redact")
    key = SECRETS["openai_api_key"]
    log.error("the model refused %s", key)
    try:
        raise RuntimeError(f"Incorrect API key provided: {key}; database password {DB_PASSWORD}")
    except RuntimeError:
        log.exception("answering failed")
    written = root_stream.getvalue()
    assert "the model refused [redacted]" in written
    assert "RuntimeError: Incorrect API key provided: [redacted]; database password [redacted]" in written
    assert key not in written and DB_PASSWORD not in written
