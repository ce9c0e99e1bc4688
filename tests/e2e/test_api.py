"""The HTTP API over real HTTP: uvicorn on 127.0.0.1, a real Engine on a data directory, httpx as the client.

Most tests share one server over the sample corpus (workspace `acme`) and use their own workspaces or
threads; a restart, the API switched off and a broken store get servers of their own.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from openapi_spec_validator import validate
from starlette.routing import Mount

from masis.api import api_routes
from masis.config import Settings
from masis.engine import Engine
from masis.ingest import pipeline
from masis.pause import hooked
from tests.bigdoc import document
from tests.conftest import SAMPLE_DIR, make_settings
from tests.e2e.api_server import AUTH, ApiServer
from tests.e2e.conftest import API_TOKEN, BotProcess, BotServer
from tests.e2e.helpers import is_answer, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import TEAM_ID, SlackEmulator
from tests.gates import Flag, Gate, Worker, first_of

WS = "acme"
METRICS_TOKEN = "test-metrics-token-0002"
MAX_FILE = 64_000  # the sample's largest file is 38 KB
ANSWERED = "What is our AI investment strategy?"
CONFLICT = "What was Q3 2026 revenue?"
FALCON = b"# Project Falcon\n\nProject Falcon launches on 14 March 2027 in Oslo with a budget of $2.1 million.\n"
API_ROUTES = {
    ("POST", "/masis/workspaces/{workspace_id}"),
    ("GET", "/masis/workspaces/{workspace_id}/documents"),
    ("POST", "/masis/workspaces/{workspace_id}/documents"),
    ("DELETE", "/masis/workspaces/{workspace_id}/documents/{name}"),
    ("GET", "/masis/threads/{thread_id}"),
    ("POST", "/masis/threads/{thread_id}/reply"),
    ("POST", "/masis/threads/{thread_id}/feedback"),
}


def api_settings(data_dir: Path, **overrides: Any) -> Settings:
    return make_settings(data_dir, **{"api_token": API_TOKEN, "max_file_bytes": MAX_FILE, **overrides})


def seeded(data_dir: Path, **overrides: Any) -> Settings:
    settings = api_settings(data_dir, **overrides)
    with Engine(settings) as engine:
        assert not engine.ingest_paths(WS, [SAMPLE_DIR]).failed
    return settings


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    server = ApiServer(seeded(tmp_path_factory.mktemp("api") / "data")).start()
    yield server
    server.stop()


@pytest.fixture
def http(api: ApiServer) -> Iterator[httpx.Client]:
    with api.client() as client:
        yield client


def ask(http: httpx.Client, question: str, workspace: str = WS, **extra: Any) -> dict[str, Any]:
    response = http.post(f"/masis/workspaces/{workspace}", json={"query": question, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def cited_docs(outcome: dict[str, Any]) -> set[str]:
    return {c["doc_name"] for c in outcome["citations"]}


def assert_error(response: httpx.Response, status: int, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "detail"} and body["error"]
    assert "Traceback" not in response.text
    for word in words:
        assert word.lower() in body["error"].lower(), body
    return body


# --- questions -------------------------------------------------------------------------------------------


def test_ask_returns_the_designs_response_shape(http: httpx.Client) -> None:
    outcome = ask(http, ANSWERED)
    assert outcome["status"] == "success"
    assert outcome["thread_id"].startswith("api:") and outcome["workspace_id"] == WS
    assert "[strategy_memo.pdf#" in outcome["answer"] and cited_docs(outcome) == {"strategy_memo.pdf"}
    assert 0.65 <= outcome["confidence"] <= 1.0
    assert outcome["requires_human_review"] is False
    assert outcome["clarification_question"] is None and outcome["clarification_kind"] is None
    assert outcome["clarification_options"] == []
    assert set(outcome["evaluation"]) >= {"faithfulness", "relevance", "completeness", "reasoning_quality",
                                          "overall_score"}
    assert outcome["critique"] is not None
    assert [step["node"] for step in outcome["trace"]][:2] == ["supervisor", "researcher"]
    assert outcome["metrics"]["llm_calls"] == 3 and outcome["metrics"]["retrieval_calls"] == 1


def test_feedback_is_recorded_per_answer(api: ApiServer, http: httpx.Client) -> None:
    first = ask(http, ANSWERED, thread_id="fb-thread-1")
    second = ask(http, "When does Route Optimiser 2.0 launch?", thread_id="fb-thread-1")
    assert (first["run"], second["run"]) == (1, 2)
    url = "/masis/threads/fb-thread-1/feedback"
    voted = http.post(url, json={"value": "down", "run": 1, "user": "alice"})
    assert voted.status_code == 200, voted.text
    assert voted.json() == {"thread_id": "fb-thread-1", "run": 1, "up": 0, "down": 1}
    latest = http.post(url, json={"value": "up", "user": "alice"})  # no run: the latest answer
    assert latest.json() == {"thread_id": "fb-thread-1", "run": 2, "up": 1, "down": 0}
    assert http.post(url, json={"value": "up", "run": 1, "user": "alice"}).json()["up"] == 1  # changed her mind
    assert api.engine.registry.feedback("fb-thread-1", 1) == {"alice": "up"}
    assert api.engine.registry.feedback("fb-thread-1", 2) == {"alice": "up"}
    assert_error(http.post(url, json={"value": "up", "run": 3}), 404, "no answer 3")
    assert_error(http.post("/masis/threads/fb-nowhere/feedback", json={"value": "up"}), 404, "no thread")
    assert_error(http.post(url, json={"value": "meh"}), 422)
    assert_error(http.post(url, json={"value": "up", "user": "a\u202eb\n"}), 422)


def test_votes_on_one_thread_past_the_limit_are_429_and_not_recorded(tmp_path: Path) -> None:
    api = ApiServer(seeded(tmp_path / "data", feedback_per_minute=2)).start()
    try:
        http = api.client()
        ask(http, ANSWERED, thread_id="fb-limit")
        ask(http, ANSWERED, thread_id="fb-other")
        url = "/masis/threads/fb-limit/feedback"
        for user in ("ann", "bob"):
            assert http.post(url, json={"value": "up", "user": user}).status_code == 200
        refused = http.post(url, json={"value": "down", "user": "cy"})  # 2 a minute: the next in 30 s
        body = assert_error(refused, 429, "too many votes")
        assert body["detail"] == {"thread_id": "fb-limit", "limit": 2}
        assert 1 <= int(refused.headers["Retry-After"]) <= 30
        assert api.engine.registry.feedback("fb-limit", 1) == {"ann": "up", "bob": "up"}
        assert http.post("/masis/threads/fb-other/feedback", json={"value": "up", "user": "cy"}).status_code == 200
        http.close()
    finally:
        api.stop()


def test_a_clarification_is_answered_after_a_restart(tmp_path: Path) -> None:
    """`python -m bot` with MASIS_API_TOKEN and no Slack variables serves the API alone; a clarification
    asked of one process is answered through the next one."""
    data_dir = tmp_path / "data"
    seeded(data_dir)
    first = BotProcess(data_dir, None, api_token=API_TOKEN, workdir=tmp_path / "run").start()
    try:
        with httpx.Client(base_url=first.url, headers=AUTH, trust_env=False, timeout=60) as http:
            assert http.get("/healthz").json()["slack"] == "off"
            asked = ask(http, CONFLICT, thread_id="ops-42")
    finally:
        assert first.stop() == 0, first.output()  # SIGTERM: a clean exit that releases the store
    assert asked["status"] == "needs_clarification" and asked["thread_id"] == "ops-42"
    assert asked["clarification_kind"] == "conflict" and "?" in asked["clarification_question"]
    assert asked["clarification_options"] == ["product_roadmap.txt", "q3_report.md"]
    assert asked["answer"] and asked["confidence"] is not None  # the best draft, marked for review
    assert asked["requires_human_review"] is True

    second = BotProcess(data_dir, None, api_token=API_TOKEN, workdir=tmp_path / "run").start()
    try:
        with httpx.Client(base_url=second.url, headers=AUTH, trust_env=False, timeout=60) as http:
            state = http.get("/masis/threads/ops-42").json()
            assert state["workspace_id"] == WS and state["pending"]["kind"] == "conflict"
            resumed = http.post("/masis/threads/ops-42/reply", json={"choice": "source:q3_report.md"})
            assert resumed.status_code == 200, resumed.text
            outcome = resumed.json()
            assert outcome["status"] == "success" and outcome["thread_id"] == "ops-42"
            assert cited_docs(outcome) == {"q3_report.md"} and "12.4" in outcome["answer"]
            assert http.get("/masis/threads/ops-42").json()["pending"] is None
            again = http.post("/masis/threads/ops-42/reply", json={"text": "the roadmap"})
            assert_error(again, 409, "no question waiting")
    finally:
        assert second.stop() == 0, second.output()
    logs = first.output() + second.output()
    assert "Traceback" not in logs and API_TOKEN not in logs


def test_the_server_reads_its_documents_passages_ahead_of_the_questions(tmp_path: Path) -> None:
    """`python -m bot` starts reading every stored passage with the sentence encoder and keeps the vectors in the
    data directory, where a question (in any process) finds them."""
    from masis.judge import semantic
    from masis.store.embeddings import VectorCache

    data_dir = tmp_path / "data"
    settings = seeded(data_dir)
    with Engine(settings) as engine:
        passages = [text for page in engine.store.passages(WS) for text in page]
    encoder = semantic.load()
    assert encoder is not None and passages
    server = BotProcess(data_dir, None, api_token=API_TOKEN, workdir=tmp_path / "run",
                        env={"MASIS_METRICS_TOKEN": METRICS_TOKEN}).start()
    try:
        kept = VectorCache(data_dir / "embeddings.db")
        try:
            deadline = time.monotonic() + 300
            while len(kept.get(encoder.model_key, passages)) < len(passages):  # a state the server reaches itself
                assert time.monotonic() < deadline, "the server did not read its passages ahead"
                threading.Event().wait(0.1)
        finally:
            kept.close()
        with httpx.Client(base_url=server.url, headers=AUTH, trust_env=False, timeout=60) as http:
            def counted() -> float:
                scraped = http.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).text
                found = re.search(r"^masis_read_ahead_texts_total (\S+)$", scraped, re.MULTILINE)
                assert found, "no read-ahead counter"
                return float(found.group(1))

            while counted() <= len(passages):  # counted a page at a time: the passages, then their sentences
                assert time.monotonic() < deadline, "the read-ahead counter never counted the sample's texts"
                threading.Event().wait(0.1)
            assert ask(http, ANSWERED)["status"] == "success"
    finally:
        assert server.stop() == 0, server.output()
    assert "Traceback" not in server.output()


def test_a_follow_up_with_the_thread_id_is_read_with_the_earlier_question_after_a_restart(tmp_path: Path) -> None:
    settings = seeded(tmp_path / "data")
    first = ApiServer(settings).start()
    try:
        with first.client() as http:
            asked = ask(http, "How large is the home-office equipment stipend?", thread_id="ops-follow")
    finally:
        first.stop()
    assert asked["reading"] is None and cited_docs(asked) == {"remote_work_policy.html"}
    second = ApiServer(settings).start()
    try:
        with second.client() as http:
            follow = ask(http, "Is it paid every year?", thread_id="ops-follow")
            assert follow["status"] == "success" and follow["run"] == 2
            assert follow["question"] == "Is it paid every year?"
            assert follow["reading"] == "Is the home-office equipment stipend paid every year?"
            assert cited_docs(follow) == {"remote_work_policy.html"} and "one-time" in follow["answer"]

            ask(http, "How many people work in Engineering and in Sales?", thread_id="ops-which")
            which = ask(http, "How many open roles does it have?", thread_id="ops-which")
            assert which["status"] == "needs_clarification"
            assert which["clarification_kind"] == "unclear_reference"
            assert which["clarification_options"] == ["Engineering", "Sales"]
            chosen = http.post("/masis/threads/ops-which/reply", json={"choice": "about:Sales"})
            assert chosen.status_code == 200, chosen.text
            assert chosen.json()["reading"] == "How many open roles does Sales have?"
            assert "open_roles: 4" in chosen.json()["answer"]
    finally:
        second.stop()


def test_reply_errors(http: httpx.Client) -> None:
    assert_error(http.post("/masis/threads/never-seen/reply", json={"text": "hi"}), 404, "no thread")
    answered = ask(http, ANSWERED, thread_id="answered-1")
    assert answered["status"] == "success"
    assert_error(http.post("/masis/threads/answered-1/reply", json={"choice": "accept"}), 409, "ask a new question")

    pending = ask(http, CONFLICT, thread_id="pending-1", max_retries=0)  # no retry before asking back
    assert pending["status"] == "needs_clarification"
    assert pending["metrics"]["retries"] == 0 and pending["metrics"]["llm_calls"] == 3
    unknown = assert_error(http.post("/masis/threads/pending-1/reply", json={"choice": "source:nope.pdf"}), 422)
    assert "q3_report.md" in unknown["detail"]["documents"]
    assert_error(http.post("/masis/threads/pending-1/reply", json={"text": "x", "choice": "accept"}), 422)
    assert_error(http.post("/masis/threads/pending-1/reply", json={"choice": "maybe"}), 422)
    assert_error(http.post("/masis/threads/pending-1/reply", json={}), 422)
    cancelled = http.post("/masis/threads/pending-1/reply", json={"choice": "cancel"}).json()
    assert cancelled["status"] == "cancelled" and cancelled["answer"] is None
    # a thread stays in its workspace
    assert_error(http.post("/masis/workspaces/other", json={"query": "hi", "thread_id": "pending-1"}), 409,
                 "another workspace")


def _at_once(api: ApiServer, requests: list[tuple[str, dict[str, Any]]]) -> list[httpx.Response]:
    """POST every (path, json) at the same moment: each thread has its own connection and waits at a barrier."""
    barrier = threading.Barrier(len(requests))

    def post(request: tuple[str, dict[str, Any]]) -> httpx.Response:
        with api.client() as http:
            http.get("/readyz")  # connect first, so the barrier lines up the requests, not the handshakes
            barrier.wait()
            return http.post(request[0], json=request[1])

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(post, requests))


def test_two_simultaneous_asks_with_one_thread_id_in_two_workspaces_one_wins(api: ApiServer) -> None:
    responses = _at_once(api, [(f"/masis/workspaces/{ws}", {"query": ANSWERED, "thread_id": "claimed-1"})
                               for ws in (WS, "acme:rival")])
    assert sorted(r.status_code for r in responses) == [200, 409], [r.text for r in responses]
    [won] = [r.json() for r in responses if r.status_code == 200]
    [lost] = [r for r in responses if r.status_code == 409]
    assert_error(lost, 409, "another workspace")
    with api.client() as http:
        assert http.get("/masis/threads/claimed-1").json()["workspace_id"] == won["workspace_id"]
        other = "acme:rival" if won["workspace_id"] == WS else WS
        assert_error(http.post(f"/masis/workspaces/{other}", json={"query": ANSWERED, "thread_id": "claimed-1"}),
                     409, "another workspace")


def test_identical_replies_at_once_answer_one_round_and_the_rest_get_409(api: ApiServer) -> None:
    with api.client() as http:
        pending = ask(http, CONFLICT, thread_id="rounds-1", max_retries=0)
    assert pending["status"] == "needs_clarification" and pending["clarification_round"] == 1
    reply = {"text": "which of the two figures is the audited one?", "round": 1}
    responses = _at_once(api, [("/masis/threads/rounds-1/reply", reply)] * 8)

    assert sorted(r.status_code for r in responses) == [200] + [409] * 7, [r.text for r in responses]
    [answered] = [r.json() for r in responses if r.status_code == 200]
    for refused in (r for r in responses if r.status_code == 409):
        assert_error(refused, 409)
        assert "round 1" in refused.json()["error"] or "no question waiting" in refused.json()["error"]
    assert answered["metrics"]["clarification_rounds"] == 1, "exactly one round was answered"
    with api.client() as http:
        state = http.get("/masis/threads/rounds-1").json()
        assert state["pending"] is None or state["pending"]["round"] == 2
        if state["pending"] is not None:
            assert_error(http.post("/masis/threads/rounds-1/reply", json={"choice": "accept", "round": 1}),
                         409, "round 2 is pending")
            assert http.get("/masis/threads/rounds-1").json()["pending"]["round"] == 2, "nothing changed"
            assert http.post("/masis/threads/rounds-1/reply",
                             json={"choice": "accept", "round": 2}).json()["status"] == "success"
        assert_error(http.post("/masis/threads/rounds-1/reply", json={"text": "x", "round": 0}), 422)


def test_concurrent_asks_on_different_threads(api: ApiServer) -> None:
    questions = [ANSWERED, CONFLICT, "When does Route Optimiser 2.0 launch?", "What is the remote work policy?",
                 "How many engineers do we have?", "What is the FY2026 budget?"]

    def one(index: int) -> dict[str, Any]:
        with api.client() as http:
            return ask(http, questions[index], thread_id=f"concurrent-{index}")

    with ThreadPoolExecutor(len(questions)) as pool:
        outcomes = list(pool.map(one, range(len(questions))))
    assert [o["thread_id"] for o in outcomes] == [f"concurrent-{i}" for i in range(len(questions))]
    assert [o["question"] for o in outcomes] == questions
    assert outcomes[0]["status"] == "success" and outcomes[1]["status"] == "needs_clarification"
    assert all(o["status"] in {"success", "needs_clarification"} for o in outcomes)
    with api.client() as http:
        assert http.get("/masis/threads/concurrent-1").json()["pending"]["kind"] == "conflict"


# --- documents -------------------------------------------------------------------------------------------


def test_an_upload_is_answered_from_in_its_workspace_only(http: httpx.Client) -> None:
    ops = "acme:ops"
    uploaded = http.post(f"/masis/workspaces/{ops}/documents",
                         files=[("file", ("../../etc/falcon_notes.md", FALCON, "text/markdown"))],
                         data={"uploaded_by": "ci-script"})
    assert uploaded.status_code == 200, uploaded.text
    [result] = uploaded.json()["results"]
    assert result["name"] == "falcon_notes.md" and result["status"] == "indexed" and result["chunks"] >= 1

    listed = http.get(f"/masis/workspaces/{ops}/documents").json()
    assert [(d["name"], d["uploaded_by"]) for d in listed["documents"]] == [("falcon_notes.md", "ci-script")]
    assert "falcon_notes.md" not in [d["name"] for d in http.get(f"/masis/workspaces/{WS}/documents").json()
                                     ["documents"]]

    here = ask(http, "When does Project Falcon launch?", workspace=ops)
    assert here["status"] == "success" and cited_docs(here) == {"falcon_notes.md"} and "Oslo" in here["answer"]
    elsewhere = ask(http, "When does Project Falcon launch?", workspace=WS)
    assert "falcon_notes.md" not in cited_docs(elsewhere) and "Oslo" not in (elsewhere["answer"] or "")

    again = http.post(f"/masis/workspaces/{ops}/documents", files={"file": ("falcon_notes.md", FALCON)})
    assert again.json()["results"][0]["status"] == "unchanged"

    removed = http.delete(f"/masis/workspaces/{ops}/documents/falcon_notes.md")
    assert removed.status_code == 200 and removed.json() == {"workspace_id": ops, "removed": "falcon_notes.md"}
    assert_error(http.delete(f"/masis/workspaces/{ops}/documents/falcon_notes.md"), 404, "no document")
    assert http.get(f"/masis/workspaces/{ops}/documents").json()["documents"] == []
    assert ask(http, "When does Project Falcon launch?", workspace=ops)["status"] == "needs_clarification"


def test_two_uploads_of_one_name_at_once_are_both_answered_and_the_later_one_is_whole(
    api: ApiServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tracker's case over HTTP: a big `doc.txt`, and a one-line `doc.txt` while the first is being
    written. The second waits for the first, then replaces it; both are answered "indexed"."""
    monkeypatch.setattr(pipeline, "UPSERT_BATCH", 16)  # several batches of a file under the upload limit
    ws = "acme:race"
    one_line = b"The osprey note says the launch moved to Porto."

    def upload(data: bytes) -> httpx.Response:
        with api.client() as client:
            return client.post(f"/masis/workspaces/{ws}/documents", files={"file": ("doc.txt", data)})

    held, waiting = Gate(), Flag()
    with hooked("ingest:upserted-batch", held), hooked("documents:waiting", waiting):
        first = Worker("first", lambda: upload(document("heron", 80)))
        assert held.wait()
        second = Worker("second", lambda: upload(one_line))
        assert first_of(waiting.raised, second.finished)
        held.release()
        answers = [first.outcome(), second.outcome()]
    for response in answers:
        assert response.status_code == 200, response.text
        assert [r["status"] for r in response.json()["results"]] == ["indexed"]
    with api.client() as http:
        listed = http.get(f"/masis/workspaces/{ws}/documents").json()["documents"]
        assert [(d["name"], d["chunks"], d["size_bytes"]) for d in listed] == [("doc.txt", 1, len(one_line))]
        outcome = ask(http, "Where did the launch move to?", workspace=ws)
        assert "Porto" in (outcome["answer"] or "") and cited_docs(outcome) == {"doc.txt"}
    assert api.engine.store.count(ws) == api.engine.store.count(ws, "doc.txt") == 1
    assert api.engine.store.search(ws, "heron ledger", 5) == []


def test_upload_failures_are_reported_per_file(http: httpx.Client) -> None:
    ws = "acme:uploads"
    mixed = http.post(f"/masis/workspaces/{ws}/documents", files=[
        ("file", ("good.txt", b"The Heron warehouse opens in Leeds in May 2027.")),
        ("file", ("tool.exe", b"MZ\x90\x00binary")),
    ])
    assert mixed.status_code == 200, mixed.text
    by_name = {r["name"]: r for r in mixed.json()["results"]}
    assert by_name["good.txt"]["status"] == "indexed"
    assert by_name["tool.exe"]["status"] == "failed" and by_name["tool.exe"]["reason"]

    only_bad = assert_error(http.post(f"/masis/workspaces/{ws}/documents",
                                      files={"file": ("broken.pdf", b"%PDF-1.4 not really")}), 422, "no file")
    assert only_bad["detail"]["results"][0]["status"] == "failed"
    assert_error(http.post(f"/masis/workspaces/{ws}/documents", json={"name": "x"}), 415, "multipart")
    assert_error(http.post(f"/masis/workspaces/{ws}/documents", data={"uploaded_by": "me"},
                           files={"other": ("", b"")}), 400)
    assert_error(http.post(f"/masis/workspaces/{ws}/documents", files={"file": ("..", b"text")}), 400, "name")
    assert [d["name"] for d in http.get(f"/masis/workspaces/{ws}/documents").json()["documents"]] == ["good.txt"]


def test_oversized_uploads_get_413_and_index_nothing(api: ApiServer, http: httpx.Client) -> None:
    ws = "acme:big"
    too_big = http.post(f"/masis/workspaces/{ws}/documents", files=[
        ("file", ("small.txt", b"Small and fine.")),
        ("file", ("huge.txt", b"x" * (MAX_FILE + 1))),
    ])
    body = assert_error(too_big, 413, "huge.txt", "nothing was indexed", "larger than the 62.5 KiB limit per file")
    assert body["detail"] == {"limit_bytes": MAX_FILE, "files": ["huge.txt"]}
    assert http.get(f"/masis/workspaces/{ws}/documents").json()["documents"] == []

    # refused on its Content-Length alone, before any of the body is sent
    with socket.create_connection(("127.0.0.1", api.port), timeout=10) as raw:
        raw.sendall(
            f"POST /masis/workspaces/{ws}/documents HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer {API_TOKEN}\r\nContent-Type: multipart/form-data; boundary=b\r\n"
            "Content-Length: 1000000000\r\n\r\n".encode()
        )
        head = raw.recv(65536).decode(errors="replace")
    assert head.startswith("HTTP/1.1 413"), head

    # a chunked body has no Content-Length: it is counted while it streams
    chunked = http.post(f"/masis/workspaces/{WS}", content=iter([b'{"query": "', b"a" * 70_000, b'"}']),
                        headers={"Content-Type": "application/json"})
    assert "content-length" not in chunked.request.headers
    assert_error(chunked, 413, "larger than 64.0 KiB")


# --- the contract around the routes ------------------------------------------------------------------------


def test_a_missing_or_wrong_token_is_401(api: ApiServer) -> None:
    with api.client(headers={}) as anonymous:
        missing = anonymous.get(f"/masis/workspaces/{WS}/documents")
        assert_error(missing, 401, "Authorization: Bearer")
        assert missing.headers["www-authenticate"].startswith("Bearer")
        for header in (f"Bearer {API_TOKEN}x", f"Basic {API_TOKEN}", API_TOKEN, "Bearer"):
            wrong = anonymous.post(f"/masis/workspaces/{WS}", json={"query": ANSWERED},
                                   headers={"Authorization": header})
            assert_error(wrong, 401, "not valid")
            assert API_TOKEN not in wrong.text
        assert_error(anonymous.get("/masis/no/such/route"), 401)
    with api.client(headers={"Authorization": f"bearer {API_TOKEN}"}) as lower_case_scheme:
        assert lower_case_scheme.get(f"/masis/workspaces/{WS}/documents").status_code == 200


def test_bad_requests_are_json_errors(http: httpx.Client) -> None:
    invalid_json = assert_error(http.post(f"/masis/workspaces/{WS}", content=b'{"query": ',
                                          headers={"Content-Type": "application/json"}), 422)
    assert invalid_json["detail"][0]["type"] == "json_invalid"
    misnamed = assert_error(http.post(f"/masis/workspaces/{WS}", json={"question": ANSWERED}), 422)
    assert {tuple(e["loc"]) for e in misnamed["detail"]} == {("query",), ("question",)}
    assert_error(http.post(f"/masis/workspaces/{WS}", json={"query": "   "}), 422)
    assert_error(http.post(f"/masis/workspaces/{WS}", json={"query": "x", "max_retries": 9}), 422)
    assert_error(http.post(f"/masis/workspaces/{WS}", json={"query": "x", "thread_id": "a/b c"}), 422)
    assert_error(http.post(f"/masis/workspaces/{WS}", json=["query"]), 422)
    assert_error(http.post(f"/masis/workspaces/{WS}"), 422, "empty")
    assert_error(http.post("/masis/workspaces/bad%20id!", json={"query": "x"}), 400, "workspace id")
    assert_error(http.get("/masis/threads/-dash-first"), 400, "thread id")
    assert_error(http.get(f"/masis/workspaces/{WS}"), 405)
    assert_error(http.get("/masis/nothing-here"), 404, "no such route")


def _raw(port: int, request: str) -> tuple[int, dict[str, str], bytes]:
    """One request over a bare socket (httpx would refuse to send these), read to the end."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request.encode())
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode().split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


def test_404s_and_400s_the_routes_never_see_are_json_too(api: ApiServer) -> None:
    auth = f"Authorization: Bearer {API_TOKEN}\r\n"
    for path in ("/masis/threads/a%0Ab", "/masis/workspaces/a%0A/documents", "/nothing%0Ahere"):
        status, headers, body = _raw(api.port, f"GET {path} HTTP/1.1\r\nHost: x\r\n{auth}Connection: close\r\n\r\n")
        assert status == 404 and headers["content-type"] == "application/json", (path, body)
        error = json.loads(body)
        assert set(error) == {"error", "detail"} and "no such route" in error["error"].lower()
    for length in ("abc", "-1", "2\r\nContent-Length: 3"):
        status, headers, body = _raw(
            api.port, f"POST /masis/workspaces/{WS} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/json\r\n"
            f"Content-Length: {length}\r\nConnection: close\r\n\r\n{{}}")
        assert status == 400 and headers["content-type"] == "application/json", (length, body)
        error = json.loads(body)
        assert set(error) == {"error", "detail"} and "Content-Length" in error["error"]


def test_document_names_with_control_or_bidi_characters_are_refused_with_a_reason(http: httpx.Client) -> None:
    ws = "acme:names"
    # (httpx percent-encodes C0 controls in a file name itself; C1 and bidi characters go through as sent)
    for name, code in (("invoice\u202egpj.md", "U+202E"), ("notes\u0085.md", "U+0085"), ("a\u2066b.md", "U+2066")):
        upload = http.post(f"/masis/workspaces/{ws}/documents", files={"file": (name, b"Some text.")})
        refused = assert_error(upload, 400, "document name is refused", code)
        assert "\\u" in refused["detail"]["name"], "the name is echoed with its invisible characters escaped"
    assert_error(http.delete(f"/masis/workspaces/{ws}/documents/x%E2%80%AE.md"), 400, "bidirectional")
    assert http.get(f"/masis/workspaces/{ws}/documents").json()["documents"] == []


def test_the_openapi_page_documents_every_route(api: ApiServer) -> None:
    with api.client(headers={}) as anonymous:  # the description is public; the routes are not
        spec = anonymous.get("/openapi.json").json()
        page = anonymous.get("/docs")
    validate(spec)
    documented = {(method.upper(), path) for path, ops in spec["paths"].items() for method in ops}
    assert documented >= API_ROUTES | {("GET", "/readyz"), ("GET", "/healthz")}
    [mount] = [r for r in api_routes(api.engine, api.settings) if isinstance(r, Mount) and r.path == "/masis"]
    served = {(m, "/masis" + r.path) for r in mount.routes for m in r.methods or () if m != "HEAD"}
    assert served == API_ROUTES
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for method, path in API_ROUTES:
        assert f"{method} {path}" in page.text
    for operation in (spec["paths"][path][method.lower()] for method, path in API_ROUTES):
        assert {"401", "500"} <= set(operation["responses"])


def test_readyz(http: httpx.Client) -> None:
    ready = http.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"ready": True, "checks": {"store": "ok", "checkpointer": "ok", "registry": "ok"},
                            "encoder": "ok"}


def test_without_a_token_the_api_is_off(tmp_path: Path) -> None:
    server = ApiServer(api_settings(tmp_path / "data", api_token=None)).start()
    try:
        with server.client() as http:
            for response in (http.get(f"/masis/workspaces/{WS}/documents"),
                             http.post(f"/masis/workspaces/{WS}", json={"query": ANSWERED}),
                             http.post("/masis/threads/x/reply", json={"text": "x"})):
                assert_error(response, 404, "MASIS_API_TOKEN")
            assert http.get("/openapi.json").status_code == 404 and http.get("/docs").status_code == 404
            assert http.get("/healthz").status_code == 200 and http.get("/readyz").status_code == 200
    finally:
        server.stop()


def test_a_broken_store_is_503_on_readyz_and_a_plain_500_on_ask(tmp_path: Path) -> None:
    server = ApiServer(api_settings(tmp_path / "data")).start()
    try:
        with server.client() as http:
            assert http.post(f"/masis/workspaces/{WS}/documents", files={"file": ("f.md", FALCON)}).status_code == 200
            server.engine.store.close()  # the store goes away under a running server
            broken = http.get("/readyz")
            assert broken.status_code == 503
            checks = broken.json()["checks"]
            assert checks["store"].startswith("not reachable") and checks["checkpointer"] == "ok"
            failed = assert_error(http.post(f"/masis/workspaces/{WS}", json={"query": "When does Falcon launch?"}),
                                  500, "server")
            assert failed["detail"] is None and "closed" not in str(failed)
    finally:
        server.stop()


def test_slack_and_the_api_share_workspaces(bot: BotServer, slack: SlackDriver, emulator: SlackEmulator) -> None:
    """The API is mounted beside /slack/events; workspace "<team>:<channel>" is that channel's."""
    channel = "CAPI00001"
    with httpx.Client(base_url=bot.url, headers=AUTH, trust_env=False, timeout=60) as http:
        uploaded = http.post(f"/masis/workspaces/{TEAM_ID}:{channel}/documents",
                             files={"file": ("falcon_notes.md", FALCON)})
        assert uploaded.status_code == 200, uploaded.text
    ts, sent = slack.mention(channel, "When does Project Falcon launch?")
    assert sent.status == 200
    [answer] = wait_post(emulator, channel, ts, is_answer, what="an answer from the API's upload")
    assert "falcon_notes.md" in answer.blocks_text() and "Oslo" in answer.blocks_text()
