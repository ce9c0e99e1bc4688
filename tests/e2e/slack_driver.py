"""Plays Slack's side of the HTTP contract: signed requests to the bot, in Slack's documented shapes.

- Events API: `event_callback` JSON with `app_mention` / `message` events;
- slash commands: a form body (`command`, `text`, `trigger_id`, `response_url`, ...);
- interactivity: a form body with `payload=` (block_actions, view_submission).

Each request is signed like Slack signs it: `v0=` HMAC-SHA256 of `v0:{timestamp}:{body}` with the
signing secret, in `X-Slack-Signature` and `X-Slack-Request-Timestamp`.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx

from tests.e2e.slack_emulator import BOT_USER_ID, TEAM_ID, SlackEmulator

SIGNING_SECRET = "test-signing-secret-0001"
APP_ID = "A0001"
USER = "UHUMAN01"

_event_ids = itertools.count(1)


def sign(body: str, secret: str = SIGNING_SECRET, timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(secret.encode(), f"v0:{ts}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": f"v0={digest}"}


@dataclass
class Sent:
    status: int
    body: str
    elapsed_ms: float

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class SlackDriver:
    def __init__(self, bot_url: str, emulator: SlackEmulator, *, secret: str = SIGNING_SECRET) -> None:
        self.bot_url = bot_url.rstrip("/")
        self.emu = emulator
        self.secret = secret
        self.http = httpx.Client(timeout=10, trust_env=False)

    def close(self) -> None:
        self.http.close()

    # --- transport -----------------------------------------------------------------------------------------
    def post(self, body: str, content_type: str, *, headers: dict[str, str] | None = None,
             secret: str | None = None) -> Sent:
        all_headers = {"Content-Type": content_type, **sign(body, secret or self.secret), **(headers or {})}
        started = time.perf_counter()
        resp = self.http.post(f"{self.bot_url}/slack/events", content=body.encode(), headers=all_headers)
        return Sent(resp.status_code, resp.text, (time.perf_counter() - started) * 1000)

    # --- Events API -----------------------------------------------------------------------------------------
    def event(self, event: dict[str, Any], *, event_id: str | None = None, retry_num: int | None = None,
              secret: str | None = None) -> Sent:
        envelope = {
            "token": "legacy-verification-token",
            "team_id": TEAM_ID,
            "api_app_id": APP_ID,
            "event": event,
            "type": "event_callback",
            "event_id": event_id or f"Ev{next(_event_ids):010d}",
            "event_time": int(time.time()),
            "authorizations": [
                {"enterprise_id": None, "team_id": TEAM_ID, "user_id": BOT_USER_ID, "is_bot": True,
                 "is_enterprise_install": False}
            ],
            "is_ext_shared_channel": False,
        }
        headers = {}
        if retry_num is not None:
            headers = {"X-Slack-Retry-Num": str(retry_num), "X-Slack-Retry-Reason": "http_timeout"}
        return self.post(json.dumps(envelope), "application/json", headers=headers, secret=secret)

    def message_event(self, channel: str, text: str, *, kind: str = "message", ts: str | None = None,
                      thread_ts: str | None = None, user: str = USER, files: list[dict[str, Any]] | None = None,
                      channel_type: str | None = None) -> dict[str, Any]:
        ts = ts or self.emu.next_ts()
        event: dict[str, Any] = {
            "type": kind,
            "user": user,
            "text": text,
            "ts": ts,
            "channel": channel,
            "event_ts": ts,
            "client_msg_id": f"msg-{ts}",
            "team": TEAM_ID,
        }
        if kind == "message":
            event["channel_type"] = channel_type or ("im" if channel.startswith("D") else "channel")
        if thread_ts:
            event["thread_ts"] = thread_ts
        if files:
            event["files"] = files
            if kind == "message":
                event["subtype"] = "file_share"
        return event

    def mention(self, channel: str, question: str, *, thread_ts: str | None = None, ts: str | None = None,
                **kwargs: Any) -> tuple[str, Sent]:
        """`@masis <question>` as an app_mention event; returns the message's ts and the response."""
        event = self.message_event(channel, f"<@{BOT_USER_ID}> {question}", kind="app_mention", ts=ts,
                                   thread_ts=thread_ts, **kwargs)
        return event["ts"], self.event(event)

    def say(self, channel: str, text: str, **kwargs: Any) -> tuple[str, Sent]:
        """A top-level message (no mention needed in a DM), as a `message` event."""
        event = self.message_event(channel, text, **kwargs)
        return event["ts"], self.event(event)

    def reply(self, channel: str, thread_ts: str, text: str, **kwargs: Any) -> tuple[str, Sent]:
        """A plain message in a thread (no mention), as a `message` event."""
        event = self.message_event(channel, text, thread_ts=thread_ts, **kwargs)
        return event["ts"], self.event(event)

    # --- slash commands --------------------------------------------------------------------------------------
    def command(self, channel: str, text: str = "", *, user: str = USER,
                command: str = "/masis-upload") -> Sent:
        trigger = f"{int(time.time())}.{next(_event_ids)}.trigger"
        form = {
            "token": "legacy-verification-token",
            "team_id": TEAM_ID,
            "team_domain": "test",
            "channel_id": channel,
            "channel_name": f"name-{channel.lower()}",
            "user_id": user,
            "user_name": "human",
            "command": command,
            "text": text,
            "api_app_id": APP_ID,
            "is_enterprise_install": "false",
            "response_url": f"{self.emu.base_url}/commands/{TEAM_ID}/{next(_event_ids)}",
            "trigger_id": trigger,
        }
        return self.post(urlencode(form), "application/x-www-form-urlencoded")

    # --- interactivity ------------------------------------------------------------------------------------------
    def interactive(self, payload: dict[str, Any]) -> Sent:
        return self.post(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")

    def click(self, message: dict[str, Any], channel: str, action_id: str, *, user: str = USER) -> Sent:
        """Click the button `action_id` of a message the bot posted (`message` = its params and ts)."""
        element, block_id = _find_button(message["blocks"], action_id)
        action = {"action_id": action_id, "block_id": block_id, "text": element["text"],
                  "value": element.get("value"), "type": "button", "action_ts": f"{time.time():.6f}"}
        return self.interactive(self._block_actions(message, channel, action, user))

    def vote(self, message: dict[str, Any], channel: str, *, up: bool, user: str = USER) -> Sent:
        """Click 👍 (`up`) or 👎 of the native feedback buttons of a message the bot posted."""
        for block in message["blocks"]:
            for element in block.get("elements") or []:
                if element.get("type") == "feedback_buttons":
                    chosen = element["positive_button" if up else "negative_button"]
                    action = {"action_id": element["action_id"], "block_id": block.get("block_id", ""),
                              "text": chosen["text"], "value": chosen["value"], "type": "feedback_buttons",
                              "action_ts": f"{time.time():.6f}"}
                    return self.interactive(self._block_actions(message, channel, action, user))
        raise AssertionError("no feedback buttons in the message")

    def _block_actions(self, message: dict[str, Any], channel: str, action: dict[str, Any],
                       user: str) -> dict[str, Any]:
        blocks = message["blocks"]
        return {
            "type": "block_actions",
            "user": {"id": user, "username": "human", "name": "human", "team_id": TEAM_ID},
            "api_app_id": APP_ID,
            "token": "legacy-verification-token",
            "container": {"type": "message", "message_ts": message["ts"], "channel_id": channel,
                          "is_ephemeral": False, "thread_ts": message.get("thread_ts")},
            "trigger_id": f"{int(time.time())}.{next(_event_ids)}.trigger",
            "team": {"id": TEAM_ID, "domain": "test"},
            "enterprise": None,
            "is_enterprise_install": False,
            "channel": {"id": channel, "name": f"name-{channel.lower()}"},
            "message": {"type": "message", "user": BOT_USER_ID, "ts": message["ts"],
                        "thread_ts": message.get("thread_ts"), "text": message.get("text", ""), "blocks": blocks},
            "state": {"values": {}},
            "response_url": f"{self.emu.base_url}/actions/{TEAM_ID}/{next(_event_ids)}",
            "actions": [action],
        }

    def submit_view(self, view: dict[str, Any], values: dict[str, dict[str, Any]], *, user: str = USER) -> Sent:
        """Submit a modal the bot opened (`view` as sent to views.open) with the given state values."""
        payload = {
            "type": "view_submission",
            "team": {"id": TEAM_ID, "domain": "test"},
            "user": {"id": user, "username": "human", "name": "human", "team_id": TEAM_ID},
            "api_app_id": APP_ID,
            "token": "legacy-verification-token",
            "trigger_id": f"{int(time.time())}.{next(_event_ids)}.trigger",
            "view": {
                "id": f"V{next(_event_ids):08d}",
                "team_id": TEAM_ID,
                "type": "modal",
                "blocks": view["blocks"],
                "private_metadata": view.get("private_metadata", ""),
                "callback_id": view.get("callback_id", ""),
                "state": {"values": values},
                "hash": "1.abc",
                "title": view.get("title"),
                "app_id": APP_ID,
                "bot_id": "BBOT0001",
            },
            "response_urls": [],
            "is_enterprise_install": False,
            "enterprise": None,
        }
        return self.interactive(payload)


def _find_button(blocks: list[dict[str, Any]], action_id: str) -> tuple[dict[str, Any], str]:
    for block in blocks:
        for element in block.get("elements") or []:
            if element.get("type") == "button" and element.get("action_id") == action_id:
                return element, block.get("block_id", "")
    raise AssertionError(f"no button {action_id!r} in the message")


def buttons(blocks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """action_id → button (or feedback buttons) element, over all the message's actions blocks."""
    found = {}
    for block in blocks:
        for element in block.get("elements") or []:
            if element.get("type") in ("button", "feedback_buttons"):
                found[element["action_id"]] = element
    return found
