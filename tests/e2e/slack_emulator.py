"""A local Slack Web API emulator for end-to-end tests (127.0.0.1, ephemeral port).

It answers the Web API methods the bot uses with Slack's documented response shapes (and refuses what
Slack refuses: over-long messages, malformed AI-app calls), records every call
(method, params, Authorization header, HTTP status, time), serves file bytes at `/files/...` to requests
carrying the bot token (like `files.slack.com`), and can be scripted to fail a method, e.g. a 429 with
`Retry-After`. A second instance can play a foreign host that must never see the token.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

TEAM_ID = "T0001"
BOT_USER_ID = "UBOT0001"
BOT_ID = "BBOT0001"
BOT_TOKEN = "xoxb-test-0001-secret"
APP_TOKEN = "xapp-1-test-0001-secret"


@dataclass
class Call:
    method: str  # Web API method ("chat.postMessage"), or "GET /files/..." for other paths
    params: dict[str, Any]
    authorization: str | None
    status: int
    at: float
    host: str = ""
    response: dict[str, Any] = field(default_factory=dict)

    def blocks_text(self) -> str:
        """All the text in this call's blocks (and its `text`), for assertions."""
        parts = [str(self.params.get("text") or "")]
        blocks = self.params.get("blocks") or []
        if isinstance(blocks, str):
            blocks = json.loads(blocks)
        parts.append(json.dumps(blocks, ensure_ascii=False))
        view = self.params.get("view")
        if view:
            parts.append(view if isinstance(view, str) else json.dumps(view, ensure_ascii=False))
        return "\n".join(parts)

    def blocks(self) -> list[dict[str, Any]]:
        blocks = self.params.get("blocks") or []
        return json.loads(blocks) if isinstance(blocks, str) else blocks


@dataclass
class _Script:
    status: int
    headers: dict[str, str]
    body: dict[str, Any]
    times: int
    when: Callable[[dict[str, Any]], bool] | None = None


# Slack's own limits on a message's blocks, refused as Slack refuses them
MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_MESSAGE_TEXT = 12_000  # msg_blocks_too_long: all the text of all the blocks


def _texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in ([v] if k == "text" and isinstance(v, str) else _texts(v))]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def blocks_error(blocks: Any) -> str | None:
    """The error Slack answers for these blocks, or None when it accepts them."""
    if not blocks:
        return None
    if not isinstance(blocks, list) or len(blocks) > MAX_BLOCKS:
        return "invalid_blocks"
    markdown = 0
    for block in blocks:
        text = block.get("text") if isinstance(block, dict) else None
        if block.get("type") == "section" and isinstance(text, dict) and len(text.get("text", "")) > MAX_SECTION_TEXT:
            return "invalid_blocks"
        if block.get("type") == "markdown":
            if not isinstance(text, str) or not text:
                return "invalid_blocks"
            markdown += len(text)
    if markdown > MAX_MESSAGE_TEXT:  # all markdown blocks of a message together
        return "msg_blocks_too_long"
    if sum(len(t) for t in _texts(blocks)) > MAX_MESSAGE_TEXT:
        return "msg_blocks_too_long"
    return None


class SlackEmulator:
    def __init__(self, *, host: str = "127.0.0.1", name: str = "slack") -> None:
        self.name = name
        self.calls: list[Call] = []
        self.files: dict[str, tuple[dict[str, Any], bytes]] = {}
        self.redirects: dict[str, str] = {}
        self.socket_url: str | None = None
        self.members: dict[str, list[str]] = {}  # channel → its members, for conversations.members
        self._scripts: dict[str, list[_Script]] = {}
        self._stalls: list[tuple[str, Callable[[dict[str, Any]], bool], threading.Event]] = []
        self.stalled: list[Call] = []
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._ts_lock = threading.Lock()
        self._last_ts = 0.0
        self._ids = itertools.count(1)
        self._server = ThreadingHTTPServer((host, 0), self._handler_class())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.base_url = f"http://{host}:{self.port}"
        self.api_url = f"{self.base_url}/api/"
        self._thread = threading.Thread(target=self._server.serve_forever, name=f"{name}-emulator", daemon=True)

    # --- lifecycle ---------------------------------------------------------------------------------------
    def start(self) -> SlackEmulator:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> SlackEmulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- scripting -----------------------------------------------------------------------------------------
    def next_ts(self) -> str:
        """A Slack message timestamp, strictly increasing (as in one channel)."""
        with self._ts_lock:
            now = max(time.time(), self._last_ts + 0.000001)
            self._last_ts = now
            return f"{now:.6f}"

    def fail(self, method: str, *, status: int = 429, retry_after: int | None = 1, error: str = "ratelimited",
             times: int = 1, when: Callable[[dict[str, Any]], bool] | None = None) -> None:
        """Answer the next `times` calls of `method` (those whose params satisfy `when`, if given) with
        `error`: by default a 429 with `Retry-After`; `status=200` gives Slack's `{"ok": false}` refusal."""
        headers = {"Retry-After": str(retry_after)} if retry_after is not None and status == 429 else {}
        with self._lock:
            self._scripts.setdefault(method, []).append(
                _Script(status, headers, {"ok": False, "error": error}, times, when)
            )

    def stall(self, method: str, when: Callable[[dict[str, Any]], bool]) -> threading.Event:
        """Hold calls of `method` whose params satisfy `when` (the caller hangs, as on a stuck network)
        until the returned event is set; the call is then dropped unanswered, as if it never reached
        Slack. A held call is listed in `stalled`, never in `calls`."""
        release = threading.Event()
        with self._lock:
            self._stalls.append((method, when, release))
        return release

    def _hold(self, call: Call) -> bool:
        with self._lock:
            held = [r for m, when, r in self._stalls if m == call.method and when(call.params) and not r.is_set()]
        if held:
            with self._cond:
                self.stalled.append(call)
                self._cond.notify_all()
            held[0].wait(120)
        return bool(held)

    def add_file(self, name: str, data: bytes, *, filetype: str | None = None,
                 url: str | None = None) -> dict[str, Any]:
        """Register a file; returns its Slack file object (as in `files.info` and `file_input`)."""
        file_id = f"F{next(self._ids):08d}"
        obj = {
            "id": file_id,
            "name": name,
            "title": name,
            "mimetype": "application/octet-stream",
            "filetype": filetype or name.rsplit(".", 1)[-1],
            "size": len(data),
            "url_private": url or f"{self.base_url}/files/{file_id}/{name}",
            "url_private_download": url or f"{self.base_url}/files/{file_id}/download/{name}",
        }
        self.files[file_id] = (obj, data)
        return obj

    def set_members(self, channel: str, members: list[str]) -> None:
        """The members `conversations.members` lists for `channel` from now on."""
        with self._lock:
            self.members[channel] = list(members)

    def remove_member(self, channel: str, user: str) -> None:
        """`user` leaves `channel` (or is removed from it), as between two turns of a conversation."""
        with self._lock:
            self.members[channel] = [m for m in self.members.get(channel, []) if m != user]

    def add_redirect(self, path: str, location: str) -> str:
        self.redirects[path] = location
        return f"{self.base_url}{path}"

    # --- inspection ----------------------------------------------------------------------------------------
    def calls_to(self, method: str, **match: Any) -> list[Call]:
        """The calls of `method` that Slack accepted (HTTP 200 and not `"ok": false`)."""
        with self._lock:
            calls = list(self.calls)
        return [c for c in calls if c.method == method and c.status == 200 and c.response.get("ok") is not False
                and _matches(c.params, match)]

    def refused(self, method: str) -> list[Call]:
        """The calls of `method` answered with an error."""
        with self._lock:
            return [c for c in self.calls if c.method == method and (c.status != 200 or c.response.get("ok") is False)]

    def wait_for(self, predicate: Callable[[list[Call]], Any], *, timeout: float = 20.0,
                 what: str = "a Slack call") -> Any:
        """Block until `predicate(calls)` is truthy; returns its value. Fails with the calls so far."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                calls = list(self.calls)
            value = predicate(calls)
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                summary = "\n".join(f"  {c.method} {c.status} {_short(c.params)}" for c in calls)
                raise AssertionError(f"timed out waiting for {what}; calls so far:\n{summary}")
            with self._cond:
                self._cond.wait(min(remaining, 0.05))

    def posts(self, channel: str | None = None, thread_ts: str | None = None) -> list[Call]:
        match: dict[str, Any] = {}
        if channel is not None:
            match["channel"] = channel
        if thread_ts is not None:
            match["thread_ts"] = thread_ts
        return self.calls_to("chat.postMessage", **match)

    # --- the server --------------------------------------------------------------------------------------
    def _record(self, call: Call) -> None:
        with self._cond:
            self.calls.append(call)
            self._cond.notify_all()

    def _api(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, str], dict[str, Any]]:
        with self._lock:
            scripts = self._scripts.get(method) or []
            script = next((s for s in scripts if s.when is None or s.when(params)), None)
            if script is not None:
                script.times -= 1
                if script.times <= 0:
                    scripts.remove(script)
                return script.status, script.headers, script.body
        handler = getattr(self, "_m_" + method.replace(".", "_"), None)
        if handler is None:
            return 200, {}, {"ok": False, "error": "unknown_method"}
        return 200, {}, handler(params)

    # Web API methods ------------------------------------------------------------------------------------
    def _m_auth_test(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "url": "https://test.slack.com/", "team": "Test", "user": "masis",
                "team_id": TEAM_ID, "user_id": BOT_USER_ID, "bot_id": BOT_ID, "is_enterprise_install": False}

    def _m_chat_postMessage(self, params: dict[str, Any]) -> dict[str, Any]:
        if error := blocks_error(params.get("blocks")):
            return {"ok": False, "error": error}
        ts = self.next_ts()
        message = {"type": "message", "user": BOT_USER_ID, "bot_id": BOT_ID, "ts": ts,
                   "text": params.get("text", ""), "blocks": params.get("blocks") or []}
        if params.get("thread_ts"):
            message["thread_ts"] = params["thread_ts"]
        return {"ok": True, "channel": params.get("channel"), "ts": ts, "message": message}

    def _m_chat_update(self, params: dict[str, Any]) -> dict[str, Any]:
        if error := blocks_error(params.get("blocks")):
            return {"ok": False, "error": error}
        return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts"), "text": params.get("text", "")}

    def _m_chat_delete(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}

    def _m_chat_postEphemeral(self, params: dict[str, Any]) -> dict[str, Any]:
        if error := blocks_error(params.get("blocks")):
            return {"ok": False, "error": error}
        return {"ok": True, "message_ts": self.next_ts()}

    # the AI-app methods: a thread's status line, suggested prompts and title (refuse them with `fail`)
    def _m_assistant_threads_setStatus(self, params: dict[str, Any]) -> dict[str, Any]:
        messages = params.get("loading_messages") or []
        if not params.get("channel_id") or not params.get("thread_ts") or not isinstance(params.get("status"), str):
            return {"ok": False, "error": "invalid_arguments"}
        if not isinstance(messages, list) or len(messages) > 10 or not all(isinstance(m, str) for m in messages):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _m_assistant_threads_setSuggestedPrompts(self, params: dict[str, Any]) -> dict[str, Any]:
        prompts = params.get("prompts")
        if not params.get("channel_id") or not params.get("thread_ts") or not isinstance(prompts, list):
            return {"ok": False, "error": "invalid_arguments"}
        if not 1 <= len(prompts) <= 4 or not all(p.get("title") and p.get("message") for p in prompts):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _m_assistant_threads_setTitle(self, params: dict[str, Any]) -> dict[str, Any]:
        if not params.get("channel_id") or not params.get("thread_ts") or not params.get("title"):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True}

    def _m_conversations_members(self, params: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            members = self.members.get(str(params.get("channel")))
        if members is None:
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "members": members, "response_metadata": {"next_cursor": ""}}

    def _m_views_open(self, params: dict[str, Any]) -> dict[str, Any]:
        view = params.get("view")
        view = json.loads(view) if isinstance(view, str) else view
        return {"ok": True, "view": {**(view or {}), "id": f"V{next(self._ids):08d}"}}

    def _m_files_info(self, params: dict[str, Any]) -> dict[str, Any]:
        entry = self.files.get(str(params.get("file")))
        return {"ok": True, "file": entry[0]} if entry else {"ok": False, "error": "file_not_found"}

    def _m_reactions_add(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True}

    def _m_apps_connections_open(self, params: dict[str, Any]) -> dict[str, Any]:
        if not self.socket_url:
            return {"ok": False, "error": "socket_mode_not_enabled"}
        return {"ok": True, "url": self.socket_url}

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None,
                      content_type: str = "application/json; charset=utf-8") -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

            def _params(self) -> dict[str, Any]:
                parsed = urlparse(self.path)
                params: dict[str, Any] = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if raw:
                    ctype = self.headers.get("Content-Type", "")
                    if "json" in ctype:
                        params.update(json.loads(raw))
                    else:
                        params.update({k: v[-1] for k, v in parse_qs(raw.decode()).items()})
                for key in ("blocks", "view"):
                    if isinstance(params.get(key), str):
                        with contextlib.suppress(ValueError):
                            params[key] = json.loads(params[key])
                return params

            def _handle(self) -> None:
                path = urlparse(self.path).path
                params = self._params()
                auth = self.headers.get("Authorization")
                host = self.headers.get("Host", "")
                if path.startswith("/api/"):
                    method = path[len("/api/"):]
                    if emulator._hold(Call(method, params, auth, 0, time.monotonic(), host)):
                        self.close_connection = True
                        return
                    status, headers, body = emulator._api(method, params)
                    emulator._record(Call(method, params, auth, status, time.monotonic(), host, body))
                    self._send(status, json.dumps(body).encode(), headers)
                    return
                emulator._record(Call(f"{self.command} {path}", params, auth, 200, time.monotonic(), host))
                if path in emulator.redirects:
                    self._send(302, b"", {"Location": emulator.redirects[path]}, "text/plain")
                    return
                if path.startswith("/files/"):
                    file_id = path.split("/")[2]
                    entry = emulator.files.get(file_id)
                    if entry is None:
                        self._send(404, b"not found", content_type="text/plain")
                    elif auth != f"Bearer {BOT_TOKEN}":
                        # Slack answers an unauthenticated download with its sign-in page
                        self._send(200, b"<html>sign in</html>", content_type="text/html")
                    else:
                        self._send(200, entry[1], content_type="application/octet-stream")
                    return
                self._send(200, b'{"ok": true}')

            do_GET = _handle
            do_POST = _handle

        return Handler


def _matches(params: dict[str, Any], match: dict[str, Any]) -> bool:
    return all(params.get(k) == v for k, v in match.items())


def _short(params: dict[str, Any]) -> str:
    text = json.dumps({k: v for k, v in params.items() if k != "blocks"}, ensure_ascii=False)
    return text if len(text) < 200 else text[:200] + "…"
