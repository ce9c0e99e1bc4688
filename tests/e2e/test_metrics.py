"""`GET /metrics` over real HTTP: behind its own token, and counting what a real question and a real upload did
(the OpenAI path against the local OpenAI-compatible server, so model requests and tokens are counted too)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import SAMPLE_DIR
from tests.e2e.api_server import AUTH, ApiServer
from tests.e2e.conftest import API_TOKEN
from tests.openai_server import OpenAICompatServer, openai_settings

METRICS_TOKEN = "test-metrics-token-0001"
SCRAPE = {"Authorization": f"Bearer {METRICS_TOKEN}"}
WS = "metrics-ws"

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(http: httpx.Client) -> Samples:
    response = http.get("/metrics", headers=SCRAPE)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(response.text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum over every series of `name` whose labels include `labels`."""
    return sum(v for (n, ls), v in samples.items() if n == name and set(labels.items()) <= ls)


@pytest.fixture(scope="module")
def llm() -> Iterator[OpenAICompatServer]:
    server = OpenAICompatServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def api(llm: OpenAICompatServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ApiServer]:
    settings = openai_settings(tmp_path_factory.mktemp("metrics") / "data", llm, api_token=API_TOKEN,
                               metrics_token=METRICS_TOKEN)
    server = ApiServer(settings).start()
    yield server
    server.stop()


def test_the_endpoint_wants_its_own_token(api: ApiServer) -> None:
    with api.client(headers={}) as http:
        assert http.get("/metrics").status_code == 401
        refused = http.get("/metrics", headers=AUTH)  # the API's token reads no metrics
        assert refused.status_code == 401 and "MASIS_METRICS_TOKEN" in refused.json()["error"]
        assert http.get("/metrics", headers=SCRAPE).status_code == 200
        assert http.get("/masis/workspaces/x/documents", headers=SCRAPE).status_code == 401  # and not the API
        assert http.post("/metrics", headers=SCRAPE).status_code == 405


def test_without_its_token_the_endpoint_is_off(tmp_path: Path) -> None:
    from tests.e2e.test_api import api_settings

    server = ApiServer(api_settings(tmp_path / "data")).start()
    try:
        with server.client() as http:
            off = http.get("/metrics", headers=SCRAPE)
            assert off.status_code == 404 and "MASIS_METRICS_TOKEN" in off.json()["error"]
    finally:
        server.stop()


def test_a_real_upload_and_questions_move_the_counters(api: ApiServer, llm: OpenAICompatServer) -> None:
    with api.client() as http:
        before = scrape(http)
        files = [("file", (name, (SAMPLE_DIR / name).read_bytes()))
                 for name in ("q3_report.md", "strategy_memo.pdf", "product_roadmap.txt")]
        files.append(("file", ("broken.pdf", b"%PDF-1.7 this is not a PDF")))
        uploaded = http.post(f"/masis/workspaces/{WS}/documents", files=files)
        assert uploaded.status_code == 200, uploaded.text
        chunks = sum(r["chunks"] for r in uploaded.json()["results"] if r["status"] == "indexed")
        answered = http.post(f"/masis/workspaces/{WS}", json={"query": "What is our AI investment strategy?"})
        assert answered.json()["status"] == "success"
        nothing = http.post(f"/masis/workspaces/{WS}", json={"query": "What is the cafeteria menu on Fridays?"})
        assert nothing.json()["status"] == "needs_clarification"
        after = scrape(http)
        text = http.get("/metrics", headers=SCRAPE).text

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    for kind in ("md", "pdf", "txt"):
        assert delta("masis_ingest_files_total", result="indexed", format=kind) == 1, kind
    assert delta("masis_ingest_files_total", result="failed", format="pdf") == 1
    assert delta("masis_ingest_chunks_total") == chunks > 0
    assert delta("masis_questions_total", call="ask", outcome="answered", clarification="none") == 1
    assert delta("masis_questions_total", call="ask", outcome="needs_clarification",
                 clarification="zero_results") == 1
    assert delta("masis_question_seconds_count", call="ask") == 2
    assert delta("masis_queue_wait_seconds_count") == 3  # the upload and the two questions waited their turn
    for node in ("supervisor", "researcher", "synthesizer", "critic", "evaluator"):
        assert delta("masis_node_seconds_count", node=node) >= 1, node
    requests = total(after, "masis_llm_requests_total") - total(before, "masis_llm_requests_total")
    assert requests == len(llm.chat()) >= 3
    for model in ("test-synth-mini", "test-audit-large"):
        for kind in ("prompt", "completion"):
            grew = total(after, "masis_llm_tokens_total", model=model, kind=kind) - total(
                before, "masis_llm_tokens_total", model=model, kind=kind)
            assert grew > 0, (model, kind)
    # bounded labels: no workspace, thread or question text outside the queue gauges; no secret anywhere
    assert WS not in text and "cafeteria" not in text and "sk-test-secret" not in text and API_TOKEN not in text
