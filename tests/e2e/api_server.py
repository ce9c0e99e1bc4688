"""The HTTP API as a real server: a real Engine on a data directory, the ASGI app `bot.server` builds (here
without Slack), uvicorn on an ephemeral 127.0.0.1 port in a thread."""

from __future__ import annotations

import socket
import threading
from typing import Any

import httpx
import uvicorn

from bot.server import build_asgi, uvicorn_config
from masis.api import api_routes
from masis.config import Settings
from masis.engine import Engine
from tests.e2e.conftest import API_TOKEN, wait_healthy

AUTH = {"Authorization": f"Bearer {API_TOKEN}"}


class ApiServer:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = Engine(settings)
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self.port = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        asgi = build_asgi(bolt_app=None, mode="off", extra_routes=api_routes(self.engine, settings),
                          engine=self.engine)
        self._server = uvicorn.Server(uvicorn_config(asgi, log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name="api-uvicorn", daemon=True)

    def start(self) -> ApiServer:
        self._thread.start()
        wait_healthy(self.url)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self.engine.close()

    def client(self, **kwargs: Any) -> httpx.Client:
        """A client with the bearer token (pass headers={} for none)."""
        options: dict[str, Any] = {"base_url": self.url, "headers": AUTH, "timeout": 60, "trust_env": False}
        options.update(kwargs)
        return httpx.Client(**options)
