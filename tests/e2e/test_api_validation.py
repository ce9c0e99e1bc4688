"""What the HTTP API refuses with a clear message, storing nothing: uploaders and document names that would
not show as themselves, votes that are not a user's vote on an answer, and text no database can keep (NUL,
on PostgreSQL too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.api_server import ApiServer
from tests.e2e.test_api import CONFLICT, FALCON, WS, ask, assert_error, seeded


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = ApiServer(seeded(tmp_path_factory.mktemp("api-validation") / "data")).start()
    yield server
    server.stop()


@pytest.fixture
def http(api: ApiServer) -> Iterator[httpx.Client]:
    with api.client() as client:
        yield client


def upload(http: httpx.Client, workspace: str, name: str, **fields: str) -> httpx.Response:
    return http.post(f"/masis/workspaces/{workspace}/documents", files=[("file", (name, FALCON, "text/markdown"))],
                     data=fields)


def test_an_uploader_with_escape_sequences_is_refused(api: ApiServer, http: httpx.Client) -> None:
    resp = upload(http, "v-uploader", "falcon.md", uploaded_by="\x1b]0;owned\x07\x1b[31mmallory")
    assert_error(resp, 400, "uploader", "U+001B")
    assert api.engine.documents("v-uploader") == []
    assert upload(http, "v-uploader", "falcon.md", uploaded_by="mallory").status_code == 200


@pytest.mark.parametrize("char", ["\u200d", "\u200b", "\ufeff", "\U000e0041"])
def test_a_document_name_with_an_invisible_character_is_refused(char: str, api: ApiServer,
                                                                http: httpx.Client) -> None:
    resp = upload(http, "v-names", f"fal{char}con.md")
    assert_error(resp, 400, "invisible character", f"U+{ord(char):04X}")
    assert api.engine.documents("v-names") == []


def test_a_vote_must_be_a_users_vote_on_an_answer(api: ApiServer, http: httpx.Client) -> None:
    pending = ask(http, CONFLICT, thread_id="v-vote-1")
    assert pending["status"] == "needs_clarification" and pending["answer"]  # an unverified draft
    url = "/masis/threads/v-vote-1/feedback"
    assert_error(http.post(url, json={"value": "up"}), 409, "no answer to rate", "unverified")
    assert_error(http.post(url, json={"value": "up", "run": True}), 422)  # `true` is not answer 1
    assert_error(http.post(url, json={"value": "up", "user": "a b"}), 422)
    assert_error(http.post(url, json={"value": "up", "user": "\u200dalice"}), 422)
    assert api.engine.registry.feedback("v-vote-1", 1) == {}

    cancelled = http.post("/masis/threads/v-vote-1/reply", json={"choice": "cancel"})
    assert cancelled.json()["status"] == "cancelled"
    assert_error(http.post(url, json={"value": "down", "run": 1}), 409, "cancelled")

    answered = ask(http, CONFLICT, thread_id="v-vote-2")
    http.post("/masis/threads/v-vote-2/reply", json={"choice": "source:q3_report.md"})
    voted = http.post("/masis/threads/v-vote-2/feedback", json={"value": "up", "user": "alice@example.com"})
    assert voted.status_code == 200, voted.text  # an answer, once the clarification is answered
    assert answered["run"] == voted.json()["run"] == 1


def test_max_retries_true_is_not_a_number(http: httpx.Client) -> None:
    assert_error(http.post(f"/masis/workspaces/{WS}", json={"query": "What is it?", "max_retries": True}), 422)


def test_nul_in_a_question_or_a_reply_is_refused_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    server = ApiServer(seeded(tmp_path / "data", database_url=postgres_url)).start()
    try:
        with server.client() as http:
            assert_error(http.post(f"/masis/workspaces/{WS}", json={"query": "What was\u0000 Q3 revenue?"}),
                         400, "U+0000")
            pending = ask(http, CONFLICT, thread_id="v-nul")
            assert_error(http.post("/masis/threads/v-nul/reply", json={"text": "the Q3\u0000 report"}),
                         400, "U+0000")
            assert http.get("/masis/threads/v-nul").json()["pending"]["round"] == pending["clarification_round"]
    finally:
        server.stop()
