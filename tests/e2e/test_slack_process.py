"""`python -m bot` as a real process: a clarification survives a restart, and Socket Mode works against a
local WebSocket endpoint (the URL the emulator's `apps.connections.open` hands out)."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.server import ServerConnection, serve

from tests.e2e.conftest import API_TOKEN, MAIN_CHANNEL, BotProcess, bot_settings, seed
from tests.e2e.helpers import is_answer, is_clarification, wait_post
from tests.e2e.slack_driver import SlackDriver
from tests.e2e.slack_emulator import APP_TOKEN, BOT_USER_ID, TEAM_ID, SlackEmulator


@pytest.fixture
def emulator() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emu:
        yield emu


@pytest.fixture
def data_dir(tmp_path: Path, emulator: SlackEmulator) -> Path:
    path = tmp_path / "data"
    seed(bot_settings(path, emulator))
    return path


def test_a_pending_clarification_survives_a_restart(tmp_path: Path, data_dir: Path,
                                                   emulator: SlackEmulator) -> None:
    first = BotProcess(data_dir, emulator, workdir=tmp_path / "run").start()
    try:
        slack = SlackDriver(first.url, emulator)
        ts, sent = slack.mention(MAIN_CHANNEL, "What was Q3 2026 revenue?")
        assert sent.status == 200
        wait_post(emulator, MAIN_CHANNEL, ts, is_clarification, what="a clarification")
    finally:
        assert first.stop() == 0, first.output()  # SIGTERM: a clean exit that releases the store

    second = BotProcess(data_dir, emulator, workdir=tmp_path / "run").start()
    try:
        slack = SlackDriver(second.url, emulator)
        slack.reply(MAIN_CHANNEL, ts, "according to the Q3 report")
        [answer] = wait_post(emulator, MAIN_CHANNEL, ts, is_answer, what="the answer after the restart")
        assert "[1]" in answer.blocks_text()
    finally:
        assert second.stop() == 0, second.output()
    assert "Traceback" not in first.output() + second.output()


class SocketModeEndpoint:
    """Slack's side of Socket Mode: says hello, pushes envelopes, collects the client's acks."""

    def __init__(self) -> None:
        self.acks: queue.Queue[dict[str, Any]] = queue.Queue()
        self.connected = threading.Event()
        self._outbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self._server = serve(self._handle, "127.0.0.1", 0)
        self.url = f"ws://127.0.0.1:{self._server.socket.getsockname()[1]}/link/?ticket=test"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def _handle(self, conn: ServerConnection) -> None:
        conn.send(json.dumps({"type": "hello", "num_connections": 1,
                              "debug_info": {"host": "local", "approximate_connection_time": 18060},
                              "connection_info": {"app_id": "A0001"}}))
        self.connected.set()
        while True:
            try:
                envelope = self._outbox.get(timeout=0.05)
                conn.send(json.dumps(envelope))
            except queue.Empty:
                pass
            try:
                message = conn.recv(timeout=0.05)
            except TimeoutError:
                continue
            except Exception:
                return
            data = json.loads(message)
            if "envelope_id" in data:
                self.acks.put(data)

    def push(self, envelope: dict[str, Any]) -> None:
        self._outbox.put(envelope)

    def close(self) -> None:
        self._server.shutdown()


def test_socket_mode(tmp_path: Path, data_dir: Path, emulator: SlackEmulator) -> None:
    endpoint = SocketModeEndpoint()
    emulator.socket_url = endpoint.url
    bot = BotProcess(data_dir, emulator, app_token=APP_TOKEN, api_token=API_TOKEN, workdir=tmp_path / "run").start()
    try:
        assert endpoint.connected.wait(20), bot.output()
        [opened] = emulator.calls_to("apps.connections.open")
        assert opened.authorization == f"Bearer {APP_TOKEN}"

        slack = SlackDriver(bot.url, emulator)  # only to build Slack's event shapes
        event = slack.message_event(MAIN_CHANNEL, f"<@{BOT_USER_ID}> What is our AI investment strategy?",
                                    kind="app_mention")
        payload = {"token": "x", "team_id": TEAM_ID, "api_app_id": "A0001", "event": event,
                   "type": "event_callback", "event_id": "EvSOCKET01", "event_time": int(time.time()),
                   "authorizations": [{"team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True}]}
        endpoint.push({"envelope_id": "env-1", "type": "events_api", "payload": payload,
                       "accepts_response_payload": False, "retry_attempt": 0, "retry_reason": ""})
        ack = endpoint.acks.get(timeout=10)
        assert ack["envelope_id"] == "env-1"
        [answer] = wait_post(emulator, MAIN_CHANNEL, event["ts"], is_answer, what="the Socket Mode answer")
        assert "strategy_memo.pdf" in answer.blocks_text()
        # no HTTP events endpoint in Socket Mode: only health (and the API when mounted)
        assert slack.http.post(f"{bot.url}/slack/events", content=b"{}").status_code in (404, 405)
        listed = slack.http.get(f"{bot.url}/masis/workspaces/{TEAM_ID}:{MAIN_CHANNEL}/documents",
                                headers={"Authorization": f"Bearer {API_TOKEN}"})
        assert listed.status_code == 200, listed.text
        assert "strategy_memo.pdf" in [d["name"] for d in listed.json()["documents"]]
        assert slack.http.get(f"{bot.url}/readyz").json()["ready"] is True
    finally:
        assert bot.stop() == 0, bot.output()
        endpoint.close()
    assert API_TOKEN not in bot.output()
