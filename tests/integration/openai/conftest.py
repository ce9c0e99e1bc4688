"""The OpenAI path's tests share one local OpenAI-compatible server per module (tests/openai_server.py),
reset before each test so no test sees another's scripted replies or recorded requests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.openai_server import OpenAICompatServer


@pytest.fixture(scope="module")
def server() -> Iterator[OpenAICompatServer]:
    srv = OpenAICompatServer().start()
    yield srv
    srv.stop()


@pytest.fixture(autouse=True)
def _fresh_server(server: OpenAICompatServer) -> None:
    server.reset()
