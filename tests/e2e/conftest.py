"""End-to-end fixtures: a Slack Web API emulator, and the bot as a real HTTP server (uvicorn on
127.0.0.1) — in this process, or as a `python -m bot` subprocess for restarts and Socket Mode."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from bot.app import build_app
from bot.deps import BotDeps
from bot.server import build_asgi, uvicorn_config
from masis.api import api_routes
from masis.config import Settings
from masis.engine import Engine
from tests.conftest import REPO, SAMPLE_DIR, make_settings
from tests.e2e.slack_driver import SIGNING_SECRET, SlackDriver
from tests.e2e.slack_emulator import BOT_TOKEN, TEAM_ID, SlackEmulator

MAIN_CHANNEL = "CMAIN0001"
API_TOKEN = "test-api-token-0001"


def bot_settings(data_dir: Path, emulator: SlackEmulator, **overrides: Any) -> Settings:
    return make_settings(
        data_dir,
        slack_bot_token=BOT_TOKEN,
        slack_signing_secret=SIGNING_SECRET,
        slack_app_token=None,
        slack_api_url=emulator.api_url,
        **{"api_token": API_TOKEN, **overrides},
    )


def seed(settings: Settings, channel: str = MAIN_CHANNEL) -> None:
    """The sample corpus, ingested into `channel`'s workspace before the bot starts."""
    with Engine(settings) as engine:
        report = engine.ingest_paths(f"{TEAM_ID}:{channel}", [SAMPLE_DIR], uploaded_by="cli")
        assert not report.failed, report.failed


def wait_healthy(url: str, timeout: float = 30.0, process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the bot exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1, trust_env=False).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"the bot at {url} did not become healthy within {timeout} s")


class BotServer:
    """The bot in this process: real Engine, real Bolt app, the HTTP API beside it (as `serve` mounts it),
    uvicorn on an ephemeral loopback port."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = Engine(settings)
        self.deps = BotDeps.create(settings, self.engine, progress_interval=0.0)  # show every stage
        self.app = build_app(settings, self.engine, deps=self.deps)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        asgi = build_asgi(bolt_app=self.app, signing_secret=SIGNING_SECRET, deps=self.deps,
                          extra_routes=api_routes(self.engine, settings))
        self._server = uvicorn.Server(uvicorn_config(asgi, log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name="bot-uvicorn", daemon=True)

    def start(self) -> BotServer:
        self._thread.start()
        wait_healthy(self.url)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self.deps.close(wait=True)
        self.engine.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class BotProcess:
    """`python -m bot` in a subprocess, configured only through its environment, like in production."""

    def __init__(self, data_dir: Path, emulator: SlackEmulator | None, *, app_token: str | None = None,
                 api_token: str | None = None, database_url: str | None = None, workdir: Path,
                 env: dict[str, str] | None = None) -> None:
        """With no emulator, no Slack variable is set (the API-only mode). `env` is set last (e.g. the
        OpenAI path's variables)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "MASIS_", "OPENAI_", "QDRANT_"))}
        environ.update({
            "PYTHONPATH": str(REPO),
            "MASIS_DATA_DIR": str(data_dir),
            "MASIS_LLM": "extractive",
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "LOG_LEVEL": "warning",
        })
        if emulator is not None:
            environ.update({"SLACK_BOT_TOKEN": BOT_TOKEN, "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                            "SLACK_API_URL": emulator.api_url})
        if app_token:
            environ["SLACK_APP_TOKEN"] = app_token
        if api_token:
            environ["MASIS_API_TOKEN"] = api_token
        if database_url:
            environ["MASIS_DATABASE_URL"] = database_url
        environ.update(env or {})
        workdir.mkdir(parents=True, exist_ok=True)  # no .env there: the environment alone configures it
        self.log_path = workdir / f"bot-{self.port}.log"
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen([sys.executable, "-m", "bot"], cwd=workdir, env=environ,
                                        stdout=self._log, stderr=subprocess.STDOUT)

    def start(self) -> BotProcess:
        try:
            wait_healthy(self.url, timeout=60, process=self.process)
        except AssertionError:
            self.stop()
            raise AssertionError(self.log_path.read_text(errors="replace")) from None
        return self

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        return self.process.returncode

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.fixture(scope="module")
def emulator() -> Iterator[SlackEmulator]:
    with SlackEmulator() as emu:
        yield emu


@pytest.fixture(scope="module")
def bot_overrides() -> dict[str, Any]:
    """Settings a module's bot runs with beyond `bot_settings`'s (a module overrides this fixture to change them)."""
    return {}


@pytest.fixture(scope="module")
def bot(
    emulator: SlackEmulator, tmp_path_factory: pytest.TempPathFactory, bot_overrides: dict[str, Any]
) -> Iterator[BotServer]:
    """One bot per module over a data directory with the sample corpus in MAIN_CHANNEL."""
    settings = bot_settings(tmp_path_factory.mktemp("bot") / "data", emulator, **bot_overrides)
    seed(settings)
    server = BotServer(settings).start()
    yield server
    server.stop()


@pytest.fixture
def slack(bot: BotServer, emulator: SlackEmulator) -> Iterator[SlackDriver]:
    driver = SlackDriver(bot.url, emulator)
    yield driver
    driver.close()
