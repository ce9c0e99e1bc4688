"""A model server that quotes the API key back in its 401 ("Incorrect API key provided: <key>", as vLLM and
LiteLLM answer) with a key of no known shape: the key reaches no API response, CLI line, log line or Slack
message; and the API answers a failed model as the server's fault (502), an unreachable or overloaded
one as 503 with the `Retry-After` it asked for. Every face runs for real: the API and the bot over HTTP,
the CLI and the bot as processes, the model as the local OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from masis.engine import Engine
from tests.conftest import REPO, make_settings
from tests.e2e.api_server import ApiServer
from tests.e2e.conftest import API_TOKEN, MAIN_CHANNEL, BotProcess, BotServer, free_port
from tests.e2e.helpers import is_answer, is_error, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import TEAM_ID, SlackEmulator
from tests.openai_server import OpenAICompatServer, openai_settings

KEY = "vllm-key-7d41c09e5b2a"  # no sk-, xox?- or xapp- prefix: only its configured value identifies it
QUESTION = "When does Project Falcon launch?"
FALCON = "# Project Falcon\n\nProject Falcon launches on 14 March 2027 in Oslo with a budget of $2.1 million.\n"


@pytest.fixture(scope="module")
def model() -> Iterator[OpenAICompatServer]:
    server = OpenAICompatServer().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _fresh_model(model: OpenAICompatServer) -> None:
    model.reset()


def seeded(data_dir: Path, workspace: str) -> Path:
    """A data directory whose `workspace` holds the Falcon note (BM25 only: no embeddings to fetch)."""
    source = data_dir.parent / "falcon.md"
    source.write_text(FALCON, encoding="utf-8")
    with Engine(make_settings(data_dir)) as engine:
        assert not engine.ingest_paths(workspace, [source]).failed
    return data_dir


def model_env(model: OpenAICompatServer, base_url: str | None = None) -> dict[str, str]:
    return {"MASIS_LLM": "openai", "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": base_url or model.base_url,
            "MASIS_EMBED_MODEL": "", "MASIS_LLM_MAX_RETRIES": "0"}


def api_server(data_dir: Path, model: OpenAICompatServer, base_url: str | None = None) -> ApiServer:
    settings = openai_settings(data_dir, model, openai_api_key=KEY, embed_model="", llm_max_retries=0,
                               api_token=API_TOKEN, **({"openai_base_url": base_url} if base_url else {}))
    return ApiServer(settings).start()


def test_the_api_answers_502_and_never_the_key(model: OpenAICompatServer, tmp_path: Path) -> None:
    api = api_server(seeded(tmp_path / "data", "falcon"), model)
    try:
        model.fail("401")
        with api.client() as http:
            resp = http.post("/masis/workspaces/falcon", json={"query": QUESTION})
    finally:
        api.stop()
    assert [r.status for r in model.chat()] == [401]  # the key was refused and echoed
    assert resp.status_code == 502, resp.text
    assert KEY not in resp.text
    error = resp.json()["error"]
    assert "Incorrect API key provided: [redacted]" in error and "401" in error


def test_an_overloaded_model_is_503_with_its_retry_after(model: OpenAICompatServer, tmp_path: Path) -> None:
    api = api_server(seeded(tmp_path / "data", "falcon"), model)
    try:
        model.fail("429", retry_after=7)
        with api.client() as http:
            resp = http.post("/masis/workspaces/falcon", json={"query": QUESTION})
    finally:
        api.stop()
    assert resp.status_code == 503, resp.text
    assert resp.headers["retry-after"] == "7"
    assert "HTTP 429" in resp.json()["error"]


def test_an_unreachable_model_is_503(model: OpenAICompatServer, tmp_path: Path) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    api = api_server(seeded(tmp_path / "data", "falcon"), model, base_url=nowhere)
    try:
        with api.client() as http:
            resp = http.post("/masis/workspaces/falcon", json={"query": QUESTION})
    finally:
        api.stop()
    assert resp.status_code == 503, resp.text
    assert "could not connect" in resp.json()["error"]


def test_the_cli_error_line_never_shows_the_key(model: OpenAICompatServer, tmp_path: Path) -> None:
    data_dir = seeded(tmp_path / "data", "falcon")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "MASIS_", "OPENAI_", "QDRANT_"))}
    env.update({"PYTHONPATH": str(REPO), "MASIS_DATA_DIR": str(data_dir), **model_env(model)})
    model.fail("401")
    result = subprocess.run([sys.executable, "-m", "masis.cli", "ask", "--workspace", "falcon", QUESTION],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert [r.status for r in model.chat()] == [401]
    assert result.returncode != 0
    assert KEY not in result.stderr + result.stdout
    assert "Incorrect API key provided: [redacted]" in result.stderr


def test_slack_and_the_bots_log_never_show_the_key(model: OpenAICompatServer, emulator: SlackEmulator,
                                                   tmp_path: Path) -> None:
    data_dir = seeded(tmp_path / "data", f"{TEAM_ID}:{MAIN_CHANNEL}")
    bot = BotProcess(data_dir, emulator, workdir=tmp_path / "bot", env=model_env(model)).start()
    slack = SlackDriver(bot.url, emulator)
    try:
        model.fail("401")
        ts, sent = slack.mention(MAIN_CHANNEL, QUESTION)
        assert sent.status == 200
        [error] = wait_post(emulator, MAIN_CHANNEL, ts, is_error, what="the error in the thread")
    finally:
        slack.close()
        bot.stop()
    assert [r.status for r in model.chat()] == [401]
    assert "Incorrect API key provided: [redacted]" in error.blocks_text()
    assert not [c for c in emulator.calls if KEY in json.dumps(c.params)]
    log = bot.output()
    assert "answering in" in log  # the failure was logged, with its traceback...
    assert KEY not in log  # ...and without the key


def test_a_secret_quoted_from_a_document_never_reaches_slack(bot: BotServer, slack: SlackDriver,
                                                             emulator: SlackEmulator, tmp_path: Path) -> None:
    channel = "CSECRET01"
    note = tmp_path / "staging.md"
    note.write_text(f"# Staging\n\nThe staging API token is {API_TOKEN} and it rotates monthly.\n", encoding="utf-8")
    assert not bot.engine.ingest_paths(f"{TEAM_ID}:{channel}", [note], uploaded_by="cli").failed
    ts, _ = slack.mention(channel, "What is the staging API token?")
    [answer] = wait_post(emulator, channel, ts, is_answer, what="the answer")
    assert "[redacted]" in answer.blocks_text()
    assert not [c for c in emulator.calls if API_TOKEN in json.dumps(c.params)]
